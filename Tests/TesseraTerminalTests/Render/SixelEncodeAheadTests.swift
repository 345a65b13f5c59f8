import Testing

@testable import TesseraTerminal
@testable import TesseraUtilities

/// A sixel tile's palette made off the frame (``TerminalRenderer/encodeInBackground(onReady:)``):
/// the previews go while the palettes are made, a tile waits for its palette without stopping
/// the frame, and the screen then settles on exactly what a renderer drawing everything at
/// once shows (issue 34). The palettes are made when the test releases them (``HeldExecutor``).
@Suite struct SixelEncodeAheadTests {
  static func renderer(_ held: HeldExecutor) throws -> TerminalRenderer {
    let renderer = TerminalRenderer(graphics: .sixel, cellPixelSize: SixelPreviewTests.cell)
    let layer = try #require(renderer.layer as? SixelGraphicsLayer)
    layer.encode(
      on: held.executor(for: InlineImageLayer.PaletteKey.self, SixelPalette.self),
      concurrency: 1, onReady: {})
    return renderer
  }

  @Test func previewsGoWhileThePalettesAreMadeThenFullDetail() throws {
    let images = try SixelPreviewTests.tiles()
    let (reference, _) = SixelPreviewTests.reference(images)
    let held = HeldExecutor()
    let renderer = try Self.renderer(held)
    var terminal = SixelTerminal(columns: 40, rows: 17, cell: SixelPreviewTests.cell)
    terminal.apply(
      renderer.render(SixelPreviewTests.frame(), images: images, policy: .previewsFirst))
    #expect(renderer.statistics.previewUploads == 4)
    for image in images {
      #expect(SixelPreviewTests.bareCells(terminal, image) == 0, "image \(image.imageID) bare")
    }
    #expect(held.waiting == 1, "the palettes were not asked for ahead")
    // Full detail waits for its palettes; the previews stay and nothing is drawn meanwhile.
    let deferred = renderer.statistics.imagesDeferred
    terminal.apply(
      renderer.render(SixelPreviewTests.frame(), images: images, policy: .previewsFirst))
    #expect(renderer.imageBytesInLastFrame == 0, "drew without a palette")
    #expect(renderer.statistics.imagesDeferred == deferred + images.count)
    for image in images {
      #expect(SixelPreviewTests.bareCells(terminal, image) == 0, "image \(image.imageID) bare")
    }
    held.release()
    terminal.apply(
      renderer.render(SixelPreviewTests.frame(), images: images, policy: .previewsFirst))
    SixelPreviewTests.expectSame(terminal, reference, images)
    #expect(held.waiting == 0, "a palette was made twice")
  }

  @Test func aTileThatLeftBeforeItsPaletteWasMadeIsNotMade() throws {
    let images = try SixelPreviewTests.tiles()
    let held = HeldExecutor()
    let renderer = try Self.renderer(held)
    _ = renderer.render(SixelPreviewTests.frame(), images: images)
    // Only the first tile stays on screen before the palettes' turn.
    _ = renderer.render(SixelPreviewTests.frame(), images: [images[0]])
    held.release()
    _ = renderer.render(SixelPreviewTests.frame(), images: [images[0]])
    #expect(renderer.imageBytesInLastFrame > 0, "the first tile was not drawn")
    // The others come back: their palettes are asked for anew.
    _ = renderer.render(SixelPreviewTests.frame(), images: images)
    #expect(held.waiting == 1)
  }
}
