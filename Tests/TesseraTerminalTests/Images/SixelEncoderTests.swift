import Testing

@testable import TesseraTerminal

@Suite struct SixelEncoderTests {
  @Test func aTwoColourBitmapEncodesToKnownBytes() throws {
    // 3×7: top 6 rows red, the 7th blue; the middle column of row 0 transparent.
    let bitmap = try Bitmap.generated(width: 3, height: 7) { x, y in
      if y == 0, x == 1 { return (0, 0, 0, 0) }
      return y < 6 ? (255, 0, 0, 255) : (0, 0, 255, 255)
    }
    let bytes = SixelEncoder.encode(bitmap.pixels, width: 3, height: 7)
    let red = 5 * 42
    let blue = 5
    #expect(
      String(decoding: bytes, as: UTF8.self)
        == "\u{1B}P0;1;0q\"1;1;3;7#\(blue);2;0;0;100#\(red);2;100;0;0"
        + "#\(red)~}~-#\(blue)@@@\u{1B}\\")
  }

  @Test func longRunsAreRunLengthEncoded() throws {
    let bitmap = try Bitmap.generated(width: 10, height: 1) { _, _ in (0, 0, 0, 255) }
    let text = String(
      decoding: SixelEncoder.encode(bitmap.pixels, width: 10, height: 1), as: UTF8.self)
    #expect(text.hasSuffix("#0!10@\u{1B}\\"))
  }

  @Test func ditheringKeepsPureColoursPureAndMixesGreys() throws {
    let grey = try Bitmap.generated(width: 4, height: 4) { _, _ in (128, 128, 128, 255) }
    let indices = SixelEncoder.quantize(grey.pixels, width: 4, height: 4)
    #expect(Set(indices).count > 1)  // Neighbouring levels, mixed per pixel.
    let meanRed = indices.map { SixelEncoder.percentages(of: Int($0)).0 }.reduce(0, +) / 16
    #expect(abs(meanRed - 50) <= 3)
    let white = try Bitmap.generated(width: 4, height: 4) { _, _ in (255, 255, 255, 255) }
    #expect(Set(SixelEncoder.quantize(white.pixels, width: 4, height: 4)) == [251])
  }

  @Test func paletteEntriesSpanZeroToAHundred() {
    #expect(SixelEncoder.percentages(of: 0) == (0, 0, 0))
    #expect(SixelEncoder.percentages(of: 251) == (100, 100, 100))
    #expect(SixelEncoder.percentages(of: 3 * 6) == (0, 50, 0))
  }
}
