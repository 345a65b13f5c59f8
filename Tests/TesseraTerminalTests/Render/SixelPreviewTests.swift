import Testing

@testable import TesseraTerminal

/// Over a slow link a sixel terminal gets a coarse preview of every tile first
/// (``SixelPreview``, issue 34: every visible tile pictured within 3 s at 2 Mbit/s), then full
/// detail drawn over it. A preview is a small fraction of the tile's bytes, stays on the screen
/// while its full detail waits for the budget, and is never left once the screen settles.
@Suite struct SixelPreviewTests {
  static let cell = PixelSize(width: 10, height: 20)

  /// Four photo-like tiles of 19 × 7 cells (190 × 140 pixels) above a status line.
  static func tiles() throws -> [ImagePlacement] {
    try (0..<4).map { index in
      ImagePlacement(
        imageID: UInt64(index + 1),
        bitmap: try KittyCompressionTests.photo(
          width: 190 + index * 10, height: 140, grain: 25, seed: UInt64(index + 1)),
        rect: CellRect(x: (index % 2) * 20, y: (index / 2) * 8, width: 19, height: 7))
    }
  }

  static func frame() -> FrameBuffer {
    var frame = FrameBuffer(width: 40, height: 17)
    frame.put("status", x: 0, y: 16)
    return frame
  }

  /// The screen a renderer drawing everything at once leaves, and its image bytes.
  static func reference(_ images: [ImagePlacement]) -> (SixelTerminal, Int) {
    let renderer = TerminalRenderer(graphics: .sixel, cellPixelSize: cell)
    var terminal = SixelTerminal(columns: 40, rows: 17, cell: cell)
    terminal.apply(renderer.render(frame(), images: images))
    return (terminal, renderer.imageBytesInLastFrame)
  }

  static func expectSame(
    _ terminal: SixelTerminal, _ reference: SixelTerminal, _ images: [ImagePlacement]
  ) {
    var differing = 0
    for image in images {
      for y in image.rect.y..<image.rect.maxY {
        for x in image.rect.x..<image.rect.maxX
        where terminal.pixels(ofCell: x, y) != reference.pixels(ofCell: x, y) {
          differing += 1
        }
      }
    }
    #expect(differing == 0, "\(differing) cells differ from the tiles drawn at full detail")
  }

  /// Cells of `image` with no image pixel at all.
  static func bareCells(_ terminal: SixelTerminal, _ image: ImagePlacement) -> Int {
    var bare = 0
    for y in image.rect.y..<image.rect.maxY {
      for x in image.rect.x..<image.rect.maxX {
        let pixels = terminal.pixels(ofCell: x, y)
        if !stride(from: 3, to: pixels.count, by: 4).contains(where: { pixels[$0] != 0 }) {
          bare += 1
        }
      }
    }
    return bare
  }

  @Test func previewsFirstPicturesEveryTileThenDrawsFullDetailOverThem() throws {
    let images = try Self.tiles()
    let (reference, fullBytes) = Self.reference(images)
    let renderer = TerminalRenderer(graphics: .sixel, cellPixelSize: Self.cell)
    var terminal = SixelTerminal(columns: 40, rows: 17, cell: Self.cell)

    terminal.apply(renderer.render(Self.frame(), images: images, policy: .previewsFirst))
    let previewBytes = renderer.imageBytesInLastFrame
    #expect(renderer.statistics.previewUploads == 4)
    for image in images {
      #expect(Self.bareCells(terminal, image) == 0, "image \(image.imageID) has bare cells")
    }
    let ratio = Double(previewBytes) / Double(fullBytes)
    print("sixel previews: \(previewBytes) bytes against \(fullBytes) at full detail (\(ratio))")
    #expect(ratio < 0.1, "previews are \(previewBytes) of the full tiles' \(fullBytes) bytes")

    // Every tile has a picture: the same policy now draws full detail over the previews.
    terminal.apply(renderer.render(Self.frame(), images: images, policy: .previewsFirst))
    #expect(renderer.statistics.previewUploads == 4)
    Self.expectSame(terminal, reference, images)
    _ = renderer.render(Self.frame(), images: images, policy: .previewsFirst)
    #expect(renderer.imageBytesInLastFrame == 0, "a settled screen sends nothing")
  }

  @Test func aPreviewWaitingForTheBudgetStaysUntilItsFullDetailArrives() throws {
    let images = try Self.tiles()
    let (reference, fullBytes) = Self.reference(images)
    let renderer = TerminalRenderer(graphics: .sixel, cellPixelSize: Self.cell)
    var terminal = SixelTerminal(columns: 40, rows: 17, cell: Self.cell)
    terminal.apply(renderer.render(Self.frame(), images: images, policy: .preview))
    #expect(renderer.statistics.previewUploads == 4)

    // Full detail, a tile's worth a frame: the tiles still waiting keep their previews.
    var frames = 0
    repeat {
      frames += 1
      try #require(frames <= 8, "full detail never arrived")
      let deferred = renderer.statistics.imagesDeferred
      terminal.apply(
        renderer.render(Self.frame(), images: images, imageBudget: fullBytes / 4 - 1))
      for image in images {
        #expect(Self.bareCells(terminal, image) == 0, "frame \(frames): image \(image.imageID)")
      }
      if renderer.statistics.imagesDeferred == deferred { break }
    } while true
    #expect(frames >= 3, "\(frames) frames: the budget should have spread the tiles")
    Self.expectSame(terminal, reference, images)
  }

  @Test func whileMovingATileWhoseFullDetailIsEncodedIsDrawnAtFullDetail() throws {
    let images = try Self.tiles()
    let (reference, _) = Self.reference(images)
    let renderer = TerminalRenderer(graphics: .sixel, cellPixelSize: Self.cell)
    _ = renderer.render(Self.frame(), images: images)
    renderer.reset()
    var terminal = SixelTerminal(columns: 40, rows: 17, cell: Self.cell)
    terminal.apply(renderer.render(Self.frame(), images: images, policy: .preview))
    #expect(renderer.statistics.previewUploads == 0)
    Self.expectSame(terminal, reference, images)
  }

  @Test func iTerm2DrawsNoPreviews() throws {
    let images = try Self.tiles()
    let renderer = TerminalRenderer(graphics: .iterm2, cellPixelSize: Self.cell)
    _ = renderer.render(Self.frame(), images: images, policy: .previewsFirst)
    #expect(renderer.statistics.previewUploads == 0)
    #expect(renderer.statistics.imageConversions == 4)
  }
}
