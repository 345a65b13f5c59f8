import Testing

@testable import TesseraTerminal
@testable import TesseraUtilities

/// kitty's still uploads encoded off the frame (``TerminalRenderer/encodeInBackground(onReady:)``,
/// ``KittyStill``): a frame never waits for a PNG, a tile whose encoding is not done keeps what
/// it shows and is deferred, and the next tile is encoded while the link carries this one
/// (issue 34). The encodings run when the test releases them (``HeldExecutor``).
@Suite struct KittyEncodeAheadTests {
  static func renderer(
    _ held: HeldExecutor, readies: Locked<Int> = Locked(0)
  ) throws -> TerminalRenderer {
    let renderer = TerminalRenderer(graphics: .kitty, cellPixelSize: KittyTransferTests.cell)
    let layer = try #require(renderer.layer as? KittyGraphicsLayer)
    layer.encode(
      on: held.executor(for: KittyStill.Key.self, KittyStill.Encoded.self), concurrency: 1
    ) { readies.withLock { $0 += 1 } }
    return renderer
  }

  static func screen(_ text: String) -> FrameBuffer {
    var screen = FrameBuffer(width: 60, height: 30)
    screen.put(text, x: 0, y: 29)
    return screen
  }

  @Test func aFrameNeverWaitsForAnEncodingAndTheTileFollowsWhenItIsDone() throws {
    let held = HeldExecutor()
    let readies = Locked(0)
    let renderer = try Self.renderer(held, readies: readies)
    let tile = try KittyTransferTests.tile(1)
    var wire = KittyWire()
    for frame in 1...2 {
      let deferred = renderer.statistics.imagesDeferred
      let bytes = renderer.render(Self.screen("frame \(frame)"), images: [tile])
      try wire.apply(bytes)
      #expect(wire.uploads == 0 && wire.placements.isEmpty, "frame \(frame) uploaded")
      // The frame's text goes out (the differ writes the changed digit).
      #expect(String(decoding: bytes, as: UTF8.self).contains("\(frame)"))
      #expect(renderer.statistics.imagesDeferred == deferred + 1, "frame \(frame) not deferred")
    }
    #expect(held.waiting == 1, "asked for once over two frames: \(held.waiting) workers")
    held.release()
    #expect(readies.withLock { $0 } == 1)
    try wire.apply(renderer.render(Self.screen("frame 3"), images: [tile]))
    let placement = try #require(wire.placements.last, "no placement once encoded")
    let shown = try #require(wire.images[placement.id])
    // The same pixels a frame encoding them itself uploads.
    let inline = TerminalRenderer(graphics: .kitty, cellPixelSize: KittyTransferTests.cell)
    var whole = KittyWire()
    try whole.apply(inline.render(Self.screen("frame 1"), images: [tile]))
    #expect(whole.images.values.first?.rgba == shown.rgba)
    #expect(held.waiting == 0, "the upload shown was encoded again")
  }

  @Test func theNextTileIsEncodedWhileTheLinkCarriesThisOne() throws {
    let held = HeldExecutor()
    let renderer = try Self.renderer(held)
    let tiles = try [
      KittyTransferTests.tile(1, seed: 1), KittyTransferTests.tile(2, x: 20, seed: 2),
    ]
    var wire = KittyWire()
    let budget = KittyTransferTests.budget
    try wire.apply(renderer.render(Self.screen("first"), images: [tiles[0]], imageBudget: budget))
    held.release()
    // The first tile's upload (about 100 kB) is on its way in frames of 8 kB when the second
    // comes on screen: its encoding is asked for then, not when the link is free.
    try wire.apply(renderer.render(Self.screen("1"), images: [tiles[0]], imageBudget: budget))
    try wire.apply(renderer.render(Self.screen("2"), images: tiles, imageBudget: budget))
    #expect(wire.placements.isEmpty, "the first upload is whole already: no test of overlap")
    #expect(held.waiting == 1, "the second tile's encoding waits for the link")
    held.release()
    // The second goes right after the first: no encoding is asked for again meanwhile.
    let frames = try KittyTransferTests.drawUntil(
      renderer, &wire, images: tiles,
      each: { _ in #expect(held.waiting == 0, "an encoding was asked for in a paced frame") }
    ) { $0.placements.count == 2 }
    #expect(frames >= 16, "two 100-kB uploads in \(frames) frames of 8 kB")
    #expect(Set(wire.placements.map(\.id)).count == 2)
  }

  /// In the frame (every renderer but the gallery's), a tile is encoded at its turn only: asked
  /// ahead, every tile's encoding would move into the first paced frame.
  @Test func inlineATileIsEncodedOnlyAtItsTurn() throws {
    let renderer = TerminalRenderer(graphics: .kitty, cellPixelSize: KittyTransferTests.cell)
    let layer = try #require(renderer.layer as? KittyGraphicsLayer)
    let jobs = Locked(0)
    let counted = KittyStill.Encoder.Executor(
      run: { work in
        jobs.withLock { $0 += 1 }
        work()
      }, runsBeside: false)
    layer.encode(on: counted, concurrency: 1, onReady: {})
    let tiles = try (0..<3).map { try KittyTransferTests.tile(UInt64($0 + 1), x: $0 * 20) }
    var wire = KittyWire()
    try wire.apply(
      renderer.render(
        Self.screen("first"), images: tiles, imageBudget: KittyTransferTests.budget))
    #expect(jobs.withLock { $0 } == 1, "\(jobs.withLock { $0 }) encodings in the first frame")
    _ = try KittyTransferTests.drawUntil(renderer, &wire, images: tiles) {
      $0.placements.count == 3
    }
    #expect(jobs.withLock { $0 } == 3, "\(jobs.withLock { $0 }) encodings for three tiles")
  }

  @Test func anEncodingForATileThatLeftTheScreenIsDropped() throws {
    let held = HeldExecutor()
    let renderer = try Self.renderer(held)
    let first = try KittyTransferTests.tile(1, seed: 1)
    let second = try KittyTransferTests.tile(2, x: 20, seed: 2)
    _ = renderer.render(Self.screen("both"), images: [first, second])
    // The second scrolled away before its encoding ran.
    _ = renderer.render(Self.screen("one"), images: [first])
    held.release()
    var wire = KittyWire()
    try wire.apply(renderer.render(Self.screen("one again"), images: [first]))
    #expect(wire.placements.count == 1)
    // Back on screen, it is asked for anew: nothing was kept for it.
    let deferred = renderer.statistics.imagesDeferred
    try wire.apply(renderer.render(Self.screen("both again"), images: [first, second]))
    #expect(renderer.statistics.imagesDeferred == deferred + 1)
    #expect(held.waiting == 1)
    held.release()
    try wire.apply(renderer.render(Self.screen("both, encoded"), images: [first, second]))
    #expect(wire.placements.count == 2, "\(wire.placements.count) placements")
  }
}
