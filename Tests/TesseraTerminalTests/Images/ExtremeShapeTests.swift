import TesseraUtilities
import Testing

@testable import TesseraTerminal

/// One small image with an extreme shape (inside the pixel limit) placed as its aspect says:
/// every image path works on the visible crop, so the work is bounded by the screen.
@Suite struct ExtremeShapeTests {
  static let cell = PixelSize(width: 10, height: 20)
  static let screen = (width: 80, height: 24)
  static let viewport = CellRect(x: 0, y: 1, width: 80, height: 22)
  /// Every pixel of the screen once: the bound on resampling per frame.
  static let screenPixels = 80 * 24 * 10 * 20

  /// 1×65,535, its colour running down the rows.
  static func tall() throws -> Bitmap {
    try Bitmap.generated(width: 1, height: 65_535) { _, y in
      (UInt8(truncatingIfNeeded: y >> 8), UInt8(truncatingIfNeeded: y), 40, 255)
    }
  }

  /// 65,535×1, its colour running along the columns.
  static func wide() throws -> Bitmap {
    try Bitmap.generated(width: 65_535, height: 1) { x, _ in
      (40, UInt8(truncatingIfNeeded: x >> 8), UInt8(truncatingIfNeeded: x), 255)
    }
  }

  /// The tall one in a list row 40 columns wide is 400 px wide, so 26,214,000 px tall:
  /// 1,310,700 rows, scrolled to its middle.
  static let tallRect = CellRect(x: 2, y: -600_000, width: 40, height: 1_310_700)
  /// The wide one across a 10-row tile: 655,350 columns, scrolled sideways.
  static let wideRect = CellRect(x: -300_000, y: 3, width: 655_350, height: 10)

  @Test(arguments: GraphicsProtocol.allCases)
  func anExtremeShapeCostsOnlyWhatTheScreenShows(graphics: GraphicsProtocol) throws {
    for (bitmap, rect) in [(try Self.tall(), Self.tallRect), (try Self.wide(), Self.wideRect)] {
      let renderer = TerminalRenderer(graphics: graphics, cellPixelSize: Self.cell)
      var frame = FrameBuffer(width: Self.screen.width, height: Self.screen.height)
      frame.put("title", x: 0, y: 0)
      frame.put("status", x: 0, y: 23)
      let placement = ImagePlacement(
        imageID: 1, bitmap: bitmap, rect: rect, clip: Self.viewport)
      let bytes = renderer.render(frame, images: [placement])
      #expect(renderer.statistics.pixelsResampled <= Self.screenPixels, "\(graphics) \(rect)")
      #expect(bytes.count < 2 << 20, "\(graphics) \(rect): \(bytes.count) bytes")
      #expect(renderer.statistics.imageConversions == 1)
      if graphics == .blocks {
        var terminal = VirtualTerminal(width: Self.screen.width, height: Self.screen.height)
        terminal.apply(bytes)
        #expect(terminal.screen.text(ofRow: 0).hasPrefix("title"))
        #expect(terminal.screen.text(ofRow: 23).hasPrefix("status"))
        let shown = rect.intersection(Self.viewport)
        #expect(terminal.screen[shown.x, shown.y].text == HalfBlockImage.upperHalfBlock)
      }
      // Scrolling the giant tile by one row costs one more visible crop, no more.
      let before = renderer.statistics.pixelsResampled
      var moved = placement
      moved.rect.y -= 1
      _ = renderer.render(frame, images: [moved])
      #expect(renderer.statistics.pixelsResampled - before <= Self.screenPixels)
    }
  }

  @Test func halfBlocksBuildOnlyTheCropAndDrawItInPlace() throws {
    let crop = CellRect(x: 0, y: 600_001, width: 40, height: 22)
    let image = HalfBlockImage(try Self.tall(), columns: 40, rows: 1_310_700, crop: crop)
    #expect(image.cells.count == 40 * 22)
    #expect(image.columns == 40)
    #expect(image.rows == 1_310_700)
    var frame = FrameBuffer(width: 80, height: 24)
    image.draw(into: &frame, at: (2, -600_000))
    #expect(frame[1, 1] == .blank)
    #expect(frame[2, 1].text == HalfBlockImage.upperHalfBlock)
    #expect(frame[41, 22].text == HalfBlockImage.upperHalfBlock)
    #expect(frame[2, 0] == .blank)  // Row 600,000 of the image was not built.
    #expect(frame[2, 23] == .blank)
  }

  @Test func resamplingACropEqualsCroppingTheWholeResample() throws {
    var random = SplitMix64(seed: 11)
    for _ in 0..<40 {
      let source = (Int.random(in: 1...23, using: &random), Int.random(in: 1...23, using: &random))
      let bitmap = try Bitmap.generated(width: source.0, height: source.1) { _, _ in
        (
          UInt8.random(in: 0...255, using: &random), UInt8.random(in: 0...255, using: &random),
          UInt8.random(in: 0...255, using: &random), UInt8.random(in: 0...255, using: &random)
        )
      }
      let width = Int.random(in: 1...31, using: &random)
      let height = Int.random(in: 1...31, using: &random)
      let whole = AreaResampler.resample(bitmap, width: width, height: height)
      let x = Int.random(in: 0..<width, using: &random)
      let y = Int.random(in: 0..<height, using: &random)
      let crop = Rect(
        x: x, y: y, width: Int.random(in: 1...(width - x), using: &random),
        height: Int.random(in: 1...(height - y), using: &random))
      var expected: [UInt8] = []
      for row in crop.y..<(crop.y + crop.height) {
        let start = (row * width + crop.x) * 4
        expected += whole[start..<(start + crop.width * 4)]
      }
      #expect(
        AreaResampler.resample(bitmap, width: width, height: height, crop: crop) == expected,
        "\(source) → \(width)x\(height) crop \(crop)")
    }
  }

  @Test func kittyUploadsAreBoundedByTheTileAndCroppedToItsShape() throws {
    let renderer = TerminalRenderer(graphics: .kitty, cellPixelSize: Self.cell)
    let frame = FrameBuffer(width: 80, height: 24)
    // 65,535×1 in a tile 20 columns by 1 row (200×20 px, 10:1): its centre at 10:1, 10×1
    // pixels, is all that is uploaded — neither 65,535 pixels nor a squeezed 200×1.
    let bytes = renderer.render(
      frame,
      images: [
        ImagePlacement(
          imageID: 9, bitmap: try Self.wide(), rect: CellRect(x: 0, y: 0, width: 20, height: 1))
      ])
    #expect(TerminalRendererTests.text(bytes).contains("a=t,t=d,f=100,s=10,v=1,i=1,"))
    #expect(renderer.statistics.pixelsResampled == 0)
  }

  @Test func absurdPlacementsAreSkippedNotTrapped() throws {
    let renderer = TerminalRenderer(graphics: .sixel, cellPixelSize: Self.cell)
    let frame = FrameBuffer(width: 80, height: 24)
    let bitmap = try HalfBlockImageTests.stripes()
    let absurd = [
      CellRect(x: 0, y: 0, width: Int.max, height: Int.max),
      CellRect(x: Int.max - 5, y: Int.max - 5, width: 100, height: 100),
      CellRect(x: Int.min, y: 0, width: 1 << 25, height: 3),
    ]
    for rect in absurd {
      _ = renderer.render(frame, images: [ImagePlacement(imageID: 3, bitmap: bitmap, rect: rect)])
    }
    #expect(renderer.statistics.pixelsResampled == 0)
  }

  @Test func bitmapsUpToTheFeedLimitAreAcceptedAndBeyondRefusedWithASentence() throws {
    #expect(throws: Never.self) { try Self.tall() }
    #expect(throws: BitmapError.invalidSize(width: 65_536, height: 1)) {
      try Bitmap(width: 65_536, height: 1, pixels: [])
    }
    #expect(
      BitmapError.invalidSize(width: 65_536, height: 1).description
        == "an image of 65536×1 pixels cannot be drawn (each side must be 1 to 65535)")
  }
}
