import Testing

@testable import TesseraTerminal
@testable import TesseraUtilities

/// kitty uploads larger than a frame's image budget go in chunks across frames
/// (``KittyTransfer``): what a frame adds stays near the budget, the tile keeps what it showed
/// until the new upload is whole, and a transfer given up is ended so the next upload is read
/// as its own (issue 34).
@Suite struct KittyTransferTests {
  static let cell = PixelSize(width: 8, height: 16)
  static let budget = 8192
  /// A frame may pass the budget by the command that crossed it: one chunk and its keys.
  static let slack = KittyCommands.chunkSize + 200

  /// Noise: PNG cannot shrink it, so a 160×160 tile is about 100 kB on the wire.
  static func noise(seed: UInt64) throws -> Bitmap {
    var random = SplitMix64(seed: seed)
    return try Bitmap.generated(width: 200, height: 160) { _, _ in
      let value = random.next()
      return (
        UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 8),
        UInt8(truncatingIfNeeded: value >> 16), 255
      )
    }
  }

  static func tile(_ id: UInt64, x: Int = 0, seed: UInt64 = 1) throws -> ImagePlacement {
    ImagePlacement(
      imageID: id, bitmap: try noise(seed: seed), rect: CellRect(x: x, y: 0, width: 20, height: 10)
    )
  }

  /// Frames under `budget` until `done`, each within the budget and with the frame's text;
  /// returns how many it took.
  static func drawUntil(
    _ renderer: TerminalRenderer, _ wire: inout KittyWire, images: [ImagePlacement],
    policy: ImageDrawPolicy = .all, limit: Int = 60, each: (KittyWire) -> Void = { _ in },
    done: (KittyWire) -> Bool
  ) throws -> Int {
    var frames = 0
    while !done(wire) {
      frames += 1
      try #require(frames <= limit, "not done after \(limit) frames of \(budget) bytes")
      var screen = FrameBuffer(width: 60, height: 30)
      screen.put("frame \(frames)", x: 0, y: 29)
      let bytes = renderer.render(screen, images: images, policy: policy, imageBudget: budget)
      #expect(
        renderer.imageBytesInLastFrame <= budget + slack,
        "frame \(frames): \(renderer.imageBytesInLastFrame) image bytes for a \(budget)-byte budget"
      )
      // The frame's text goes with it, whatever waits.
      #expect(bytes.count > renderer.imageBytesInLastFrame, "frame \(frames) without its text")
      try wire.apply(bytes)
      each(wire)
    }
    return frames
  }

  @Test func aTileLargerThanTheBudgetGoesInChunksAcrossFrames() throws {
    let renderer = TerminalRenderer(graphics: .kitty, cellPixelSize: Self.cell)
    var wire = KittyWire()
    let tile = try Self.tile(1)
    let deferredBefore = renderer.statistics.imagesDeferred
    let frames = try Self.drawUntil(renderer, &wire, images: [tile]) { !$0.placements.isEmpty }
    #expect(frames >= 8, "a 100-kB upload in \(frames) frames of \(Self.budget) bytes")
    // Every frame before the last said the tile waits, so the caller draws again.
    #expect(renderer.statistics.imagesDeferred - deferredBefore == frames - 1)
    let last = try #require(wire.placements.last)
    let shown = try #require(wire.images[last.id])
    #expect(shown.width == 160 && shown.height == 160)
    // The same pixels an unpaced frame uploads.
    let unpaced = TerminalRenderer(graphics: .kitty, cellPixelSize: Self.cell)
    var whole = KittyWire()
    try whole.apply(unpaced.render(FrameBuffer(width: 60, height: 30), images: [tile]))
    #expect(whole.images.values.first?.rgba == shown.rgba)
  }

  @Test func aPreviewStaysShownUntilItsFullDetailIsWhole() throws {
    let renderer = TerminalRenderer(graphics: .kitty, cellPixelSize: Self.cell)
    var wire = KittyWire()
    let tile = try Self.tile(2)
    try wire.apply(
      renderer.render(FrameBuffer(width: 60, height: 30), images: [tile], policy: .preview))
    let preview = try #require(wire.placements.last?.id)
    #expect((wire.images[preview]?.width ?? 0) < 160)
    var placedBeforeWhole = 0
    let frames = try Self.drawUntil(
      renderer, &wire, images: [tile],
      each: { wire in
        guard wire.placements.last?.id == preview else { return }
        // Until the last chunk, the preview is still there to show.
        #expect(wire.images[preview] != nil, "the preview was freed before its replacement")
        placedBeforeWhole += 1
      }, done: { $0.placements.last?.id != preview })
    #expect(frames >= 8)
    #expect(placedBeforeWhole == frames - 1)
    let full = try #require(wire.placements.last?.id)
    #expect(wire.images[full]?.width == 160)
    // Once the full detail is placed, the preview's id is freed.
    #expect(wire.images[preview] == nil)
  }

  /// Two tiles shown as previews, then paced to full detail: the frame that completes the
  /// first upload starts the second, and the first's preview is freed after the placement
  /// that replaces it. kitty 0.26 drops a load under way when any deletion arrives between its
  /// chunks (seen under Xvfb: three of eight tiles blank across SSH), so the free waits for the
  /// second upload's end, and both tiles end at full detail.
  @Test func aFreeWaitsForTheUploadUnderWaySoKittyKeepsIt() throws {
    let renderer = TerminalRenderer(graphics: .kitty, cellPixelSize: Self.cell)
    var wire = KittyWire()
    let tiles = [try Self.tile(7, seed: 7), try Self.tile(8, x: 30, seed: 8)]
    try wire.apply(
      renderer.render(FrameBuffer(width: 60, height: 30), images: tiles, policy: .preview))
    let previews = Set(wire.placements.map(\.id))
    #expect(previews.count == 2)
    _ = try Self.drawUntil(renderer, &wire, images: tiles, limit: 80) { wire in
      let shown = wire.placements.suffix(4).filter { !previews.contains($0.id) }
      return Set(shown.map(\.id)).count == 2
    }
    let full = Set(wire.placements.map(\.id)).subtracting(previews)
    for id in full {
      #expect(wire.images[id]?.width == 160, "image \(id) was not whole on the terminal")
    }
    // Drawn again with nothing to send, the previews' ids are freed.
    try wire.apply(renderer.render(FrameBuffer(width: 60, height: 30), images: tiles))
    #expect(previews.allSatisfy { wire.images[$0] == nil }, "a preview's id was never freed")
  }

  /// kitty before 0.38.1 frees, with the image a `d=I` names, every image created after it
  /// that has no placement (graphics.c `filter_refs`; `KittyWire` does the same): a tile hidden
  /// for scrolling back goes with a preview freed later. The renderer knows it and uploads the
  /// tile again when it comes back, instead of placing an image kitty no longer has (a blank
  /// tile, as a real kitty 0.26.5 showed).
  @Test func aTileHiddenForScrollingBackIsUploadedAgainWhenAnOlderFreeTookIt() throws {
    let renderer = TerminalRenderer(graphics: .kitty, cellPixelSize: Self.cell)
    var wire = KittyWire()
    let screen = FrameBuffer(width: 60, height: 30)
    let tileB = try Self.tile(8, x: 30, seed: 8)
    let tileA = try Self.tile(7, seed: 7)
    // B's preview, then A at full detail while B is off screen, then B at full detail while A
    // is: B's preview is freed after A's image was created and hidden.
    try wire.apply(renderer.render(screen, images: [tileB], policy: .preview))
    let preview = try #require(wire.placements.last?.id)
    try wire.apply(renderer.render(screen, images: [tileA]))
    let first = try #require(wire.placements.last?.id)
    #expect(first != preview)
    try wire.apply(renderer.render(screen, images: [tileB]))
    #expect(wire.images[preview] == nil, "the preview was not freed")
    #expect(wire.images[first] == nil, "kitty keeps A's image: the free did not take it")
    // A comes back: uploaded again, not placed over nothing.
    let uploadsBefore = wire.uploads
    try wire.apply(renderer.render(screen, images: [tileA]))
    let shown = try #require(wire.placements.last?.id)
    #expect(wire.images[shown]?.width == 160, "A shows no image")
    #expect(wire.uploads == uploadsBefore + 1)
  }

  @Test func aTransferWhoseTileLeftIsEndedAndTheNextUploadIsReadAsItsOwn() throws {
    let renderer = TerminalRenderer(graphics: .kitty, cellPixelSize: Self.cell)
    var wire = KittyWire()
    let first = try Self.tile(3, seed: 3)
    let second = try Self.tile(4, x: 30, seed: 4)
    var screen = FrameBuffer(width: 60, height: 30)
    try wire.apply(renderer.render(screen, images: [first], imageBudget: Self.budget))
    #expect(wire.images.isEmpty, "a 100-kB upload was whole after one frame")
    // The first tile scrolled away part-way: its transfer ends, the second's begins.
    screen.put("scrolled", x: 0, y: 0)
    let bytes = renderer.render(screen, images: [second], imageBudget: Self.budget)
    let commands = KittyWire.commands(in: bytes)
    let end = commands.firstIndex { $0.keys == ["m": "0", "q": "2"] && $0.payload.isEmpty }
    let next = commands.firstIndex { $0.keys["a"] == "t" }
    #expect(
      end != nil && next != nil && end! < next!, "no end of the given-up upload before the next")
    try wire.apply(bytes)
    _ = try Self.drawUntil(renderer, &wire, images: [second]) { !$0.placements.isEmpty }
    let last = try #require(wire.placements.last)
    let shown = try #require(wire.images[last.id])
    #expect(shown.width == 160 && shown.height == 160)
    #expect(wire.images.count == 1, "the given-up upload left an image: \(wire.images.keys)")
  }

  @Test func aResetPartWayEndsTheTransferFirst() throws {
    let renderer = TerminalRenderer(graphics: .kitty, cellPixelSize: Self.cell)
    var wire = KittyWire()
    let tile = try Self.tile(5)
    try wire.apply(
      renderer.render(FrameBuffer(width: 60, height: 30), images: [tile], imageBudget: Self.budget)
    )
    renderer.reset()
    let bytes = renderer.render(FrameBuffer(width: 60, height: 30), images: [tile])
    let commands = KittyWire.commands(in: bytes)
    #expect(commands.first.map { $0.keys == ["m": "0", "q": "2"] } == true)
    try wire.apply(bytes)
    let last = try #require(wire.placements.last)
    #expect(wire.images[last.id]?.width == 160)
    // Leaving the terminal ends any upload left loading before freeing every image, so the
    // next program's first upload is not read as our last chunk.
    let leave = String(
      decoding: TerminalModes.alternateScreen.leaveSequence(freeKittyImages: true), as: UTF8.self)
    let ending = try #require(leave.range(of: "\u{1B}_Gm=0,q=2\u{1B}\\"))
    let freeing = try #require(leave.range(of: "\u{1B}_Ga=d,d=A,q=2\u{1B}\\"))
    #expect(ending.upperBound <= freeing.lowerBound)
  }
}
