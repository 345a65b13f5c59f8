import Testing

@testable import TesseraTerminal

/// kitty plays an animation itself: the renderer sends every frame once with its gap, runs
/// it, repeats the start on the next two frames that show it (kitty 0.26 starts only an image
/// it has drawn), and then sends nothing for it however often the screen is drawn. Read back
/// as kitty would (``KittyWire``).
@Suite struct KittyAnimationTests {
  static let cell = PixelSize(width: 10, height: 20)
  static let colours: [(UInt8, UInt8, UInt8)] = [(250, 0, 0), (0, 250, 0), (0, 0, 250)]

  /// Three frames of one colour each, 40×40 pixels, for a 4×2-cell box.
  static func animated(loops: Int = 0) throws -> ImagePlacement {
    let frames = try colours.map { colour in
      try Bitmap.generated(width: 40, height: 40) { _, _ in (colour.0, colour.1, colour.2, 255) }
    }
    let animation = try #require(
      ImageAnimation(frames: frames, gapsInMilliseconds: [70, 120, 500], loopCount: loops))
    return ImagePlacement(
      imageID: 77, bitmap: frames[0], rect: CellRect(x: 1, y: 1, width: 4, height: 2),
      animation: animation)
  }

  static func graphicsCommands(_ bytes: [UInt8]) -> [[String: String]] {
    KittyWire.commands(in: bytes).map(\.keys)
  }

  @Test func everyFrameGoesOnceWithItsGapAndTheAnimationRuns() throws {
    let renderer = TerminalRenderer(graphics: .kitty, cellPixelSize: Self.cell)
    #expect(renderer.playsAnimations)
    let frame = FrameBuffer(width: 20, height: 6)
    var wire = KittyWire()
    try wire.apply(renderer.render(frame, images: [try Self.animated(loops: 2)]))
    let id = try #require(wire.placements.first?.id, "nothing placed")
    let root = try #require(wire.images[id])
    let animation = try #require(wire.animations[id], "no frames were sent")
    #expect(animation.frames.count == 2)
    #expect(animation.frames.map(\.gap) == [120, 500])
    #expect(animation.firstGap == 70)
    // Each frame is its own colour, at the upload's size.
    let shown = [root] + animation.frames.map(\.image)
    for (image, colour) in zip(shown, Self.colours) {
      let pixel = image.pixel(image.width / 2, image.height / 2)
      #expect(
        pixel == [colour.0, colour.1, colour.2, 255],
        "a frame's middle is \(pixel), not \(colour)")
    }
    // Run (s=3) for two loops: kitty's v is one more.
    #expect(animation.runs.map(\.state) == [3])
    #expect(animation.runs.map(\.loops) == [3])
  }

  @Test func afterTheUploadOnlyTwoStartRepeatsThenNothing() throws {
    let renderer = TerminalRenderer(graphics: .kitty, cellPixelSize: Self.cell)
    var frame = FrameBuffer(width: 20, height: 6)
    let placement = try Self.animated()
    var wire = KittyWire()
    try wire.apply(renderer.render(frame, images: [placement]))
    let id = try #require(wire.placements.first?.id)
    var commandsPerFrame: [[[String: String]]] = []
    for index in 0..<4 {
      // Text changes (a clock in the status line), the animation does not.
      frame.put("frame \(index)", x: 0, y: 5, style: .plain)
      let bytes = renderer.render(frame, images: [placement])
      try wire.apply(bytes)
      commandsPerFrame.append(Self.graphicsCommands(bytes))
    }
    for (index, commands) in commandsPerFrame.enumerated() {
      #expect(
        !commands.contains { ["t", "f"].contains($0["a"]) },
        "frame \(index) after the upload sent image data: \(commands)")
    }
    #expect(commandsPerFrame.map(\.count) == [1, 1, 0, 0])
    #expect(
      commandsPerFrame.prefix(2).allSatisfy { $0.first?["s"] == "3" && $0.first?["v"] == "1" })
    #expect(wire.animations[id]?.runs.count == 3)
  }

  @Test func aPreviewFrameSendsTheStillAndTheNextFullFrameTheAnimation() throws {
    let renderer = TerminalRenderer(graphics: .kitty, cellPixelSize: Self.cell)
    let frame = FrameBuffer(width: 20, height: 6)
    let placement = try Self.animated()
    var wire = KittyWire()
    try wire.apply(renderer.render(frame, images: [placement], policy: .preview))
    #expect(wire.animations.isEmpty, "a preview carries no frames")
    try wire.apply(renderer.render(frame, images: [placement]))
    let id = try #require(wire.placements.last?.id)
    #expect(wire.animations[id]?.frames.count == 2)
  }

  @Test func aStillOfTheSameIDIsReplacedByTheAnimation() throws {
    let renderer = TerminalRenderer(graphics: .kitty, cellPixelSize: Self.cell)
    let frame = FrameBuffer(width: 20, height: 6)
    var placement = try Self.animated()
    let animation = placement.animation
    placement.animation = nil
    var wire = KittyWire()
    try wire.apply(renderer.render(frame, images: [placement]))
    #expect(wire.animations.isEmpty)
    placement.animation = animation
    try wire.apply(renderer.render(frame, images: [placement]))
    let id = try #require(wire.placements.last?.id)
    #expect(wire.animations[id]?.frames.count == 2)
  }

  @Test func sixelAndBlocksDoNotPlayAnimations() {
    for graphics in [GraphicsProtocol.sixel, .blocks, .iterm2] {
      #expect(!TerminalRenderer(graphics: graphics).playsAnimations, "\(graphics)")
    }
  }

  @Test func theAnimationClampsGapsAndLoopsAndRefusesWhatItCannotHold() throws {
    let small = try Bitmap.generated(width: 4, height: 4) { _, _ in (1, 2, 3, 255) }
    let other = try Bitmap.generated(width: 5, height: 4) { _, _ in (1, 2, 3, 255) }
    let clamped = try #require(
      ImageAnimation(
        frames: [small, small, small], gapsInMilliseconds: [-5, 1 << 40], loopCount: -3))
    #expect(clamped.gapsInMilliseconds == [1, ImageAnimation.longestGap, 1])
    #expect(clamped.loopCount == 0)
    #expect(ImageAnimation(frames: [small], gapsInMilliseconds: [10], loopCount: 0) == nil)
    #expect(
      ImageAnimation(frames: [small, other], gapsInMilliseconds: [10, 10], loopCount: 0) == nil)
    // 1024×1024 RGBA is 4 MiB a frame: 17 frames pass the 64 MiB the terminal may hold.
    let large = try Bitmap.generated(width: 1024, height: 1024) { _, _ in (0, 0, 0, 255) }
    #expect(
      ImageAnimation(
        frames: Array(repeating: large, count: 17), gapsInMilliseconds: [], loopCount: 0) == nil)
    #expect(
      ImageAnimation(
        frames: Array(repeating: large, count: 16), gapsInMilliseconds: [], loopCount: 0) != nil)
  }
}
