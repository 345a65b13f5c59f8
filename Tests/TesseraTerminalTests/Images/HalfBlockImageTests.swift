import Testing

@testable import TesseraTerminal

@Suite struct HalfBlockImageTests {
  /// Four horizontal stripes, `height / 4` pixels tall each, over a 4-pixel-wide bitmap.
  static func stripes(height: Int = 32) throws -> Bitmap {
    let colours: [(UInt8, UInt8, UInt8)] = [(255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 255)]
    return try Bitmap.generated(width: 4, height: height) { _, y in
      let (r, g, b) = colours[y / (height / 4)]
      return (r, g, b, 255)
    }
  }

  @Test func eachCellCarriesItsUpperAndLowerPixel() throws {
    // 2×2 cells are 2×4 half-block pixels: a bitmap of that shape, one stripe per pixel row.
    let image = HalfBlockImage(try Self.stripes(height: 8), columns: 2, rows: 2)
    #expect(image.cells.count == 4)
    #expect(image.cells.allSatisfy { $0.text == "▀" })
    #expect(image.cells[0].style.foreground == .rgb(255, 0, 0))
    #expect(image.cells[0].style.background == .rgb(0, 255, 0))
    #expect(image.cells[3].style.foreground == .rgb(0, 0, 255))
    #expect(image.cells[3].style.background == .rgb(255, 255, 255))
  }

  @Test func areaAveragingMixesCoveredPixelsByOverlap() throws {
    // 3×3 source pixels into 2×2: each output covers 1.5 × 1.5 pixels. Columns 0, 90, 180.
    let bitmap = try Bitmap.generated(width: 3, height: 3) { x, _ in
      let value = UInt8(x * 90)
      return (value, value, value, 255)
    }
    let pixels = AreaResampler.resample(bitmap, width: 2, height: 2)
    #expect(pixels == [30, 30, 30, 255, 150, 150, 150, 255, 30, 30, 30, 255, 150, 150, 150, 255])
  }

  @Test func transparentPixelsBlendOverTheBackground() throws {
    let bitmap = try Bitmap(width: 1, height: 2, pixels: [255, 255, 255, 0, 255, 0, 0, 255])
    let image = HalfBlockImage(bitmap, columns: 1, rows: 1, background: RGB(10, 20, 30))
    #expect(image.cells[0].style.foreground == .rgb(10, 20, 30))
    #expect(image.cells[0].style.background == .rgb(255, 0, 0))
  }

  /// A tile rounded to whole rows is not quite its photo's shape: the photo fills it, its
  /// centre shown at its own aspect, as kitty, sixel and iTerm2 show it; never a margin band,
  /// never a stretch.
  @Test func aBitmapOfAnotherShapeFillsItsTileNotStretched() throws {
    // A 2:1 photo over 10×4 cells of 10×20 px (100×80 px, 5:4): the centre 125×100 px of it
    // shows, so the green outer 30 px a side are cut, and no background band is left.
    let photo = try Bitmap.generated(width: 200, height: 100) { x, _ in
      x < 30 || x >= 170 ? (0, 255, 0, 255) : (255, 0, 0, 255)
    }
    let image = HalfBlockImage(
      photo, columns: 10, rows: 4, cellSize: PixelSize(width: 10, height: 20),
      background: RGB(1, 2, 3))
    let shown = CellColor.rgb(255, 0, 0)
    #expect(image.cells.count == 40)
    #expect(
      image.cells.allSatisfy { $0.style.foreground == shown && $0.style.background == shown },
      "\(Set(image.cells.map(\.style)))")
    // Stretched instead, the green sides would show in the outer columns.
    let stretched = AreaResampler.resample(photo, width: 10, height: 8)
    #expect(stretched[0..<4] == [0, 255, 0, 255])
  }

  @Test func fillingCutsTheCentreAtTheOutputsShapeOnScreen() {
    let pixel = PixelSize(width: 1, height: 1)
    // The shape's own: the whole source; a pixel wider: that pixel cut.
    for source in [PixelSize(width: 400, height: 300), PixelSize(width: 401, height: 300)] {
      #expect(
        AreaResampler.filledSource(of: source, width: 40, height: 30, unit: pixel)
          == Rect(x: 0, y: 0, width: 400, height: 300))
    }
    // A square photo in a landscape box keeps its full width, cut top and bottom.
    #expect(
      AreaResampler.filledSource(
        of: PixelSize(width: 60, height: 60), width: 40, height: 30, unit: pixel)
        == Rect(x: 0, y: 7, width: 60, height: 45))
    // Half blocks are a cell's width by half its height: 10×4 cells of 10×20 px as 10×8
    // units of 20×10 px (the unit is two widths by one height) are 200×80, 5:2 on screen.
    #expect(
      AreaResampler.filledSource(
        of: PixelSize(width: 100, height: 100), width: 10, height: 8,
        unit: PixelSize(width: 20, height: 10))
        == Rect(x: 0, y: 30, width: 100, height: 40))
    // Degenerate inputs give at least one pixel rather than dividing by zero.
    #expect(
      AreaResampler.filledSource(
        of: PixelSize(width: 0, height: 9), width: 40, height: 30, unit: pixel
      ).width >= 1)
  }

  @Test func drawingIsClippedToTheClipAndFrame() throws {
    let image = HalfBlockImage(try Self.stripes(), columns: 2, rows: 2)
    var frame = FrameBuffer(width: 3, height: 3)
    image.draw(into: &frame, at: (x: 2, y: -1))
    #expect(frame[2, 0].style.foreground == .rgb(0, 0, 255))
    #expect(frame[2, 1] == .blank)
    var clipped = FrameBuffer(width: 3, height: 3)
    image.draw(into: &clipped, at: (x: 0, y: 0), clip: CellRect(x: 1, y: 0, width: 5, height: 1))
    #expect(clipped[0, 0] == .blank)
    #expect(clipped[1, 0].text == "▀")
    #expect(clipped[1, 1] == .blank)
  }

  @Test func badBitmapsThrowTypedErrors() {
    #expect(throws: BitmapError.pixelCountMismatch(expected: 8, actual: 3)) {
      try Bitmap(width: 2, height: 1, pixels: [1, 2, 3])
    }
    #expect(throws: BitmapError.invalidSize(width: 0, height: 4)) {
      try Bitmap(width: 0, height: 4, pixels: [])
    }
  }
}
