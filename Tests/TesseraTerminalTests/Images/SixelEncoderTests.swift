import TesseraUtilities
import Testing

@testable import TesseraTerminal

@Suite struct SixelEncoderTests {
  /// Photo-like pixels: a sky gradient, a textured ground with seeded grain, a disc with a
  /// soft edge, and a few sharp bars — what a feed's pictures have, in 160×120.
  static func photo(seed: UInt64, width: Int = 160, height: Int = 120) throws -> Bitmap {
    var random = SplitMix64(seed: seed)
    let grain = (0..<(width * height)).map { _ in Int.random(in: -6...6, using: &random) }
    let hue = Int.random(in: 0..<256, using: &random)
    return try Bitmap.generated(width: width, height: height) { x, y in
      func byte(_ value: Int) -> UInt8 { UInt8(max(0, min(255, value))) }
      let noise = grain[y * width + x]
      let dx = x - width * 2 / 3
      let dy = y - height / 3
      let distance = dx * dx + dy * dy
      if distance < 400 {
        return (byte(240 - distance / 8 + noise), byte(200 - distance / 6), byte(60), 255)
      }
      if y < height / 2 {
        return (byte(60 + y + hue / 8), byte(110 + y), byte(230 - y / 2 + noise / 2), 255)
      }
      if x % 37 < 4 { return (byte(30 + noise), byte(30), byte(35), 255) }
      return (
        byte(90 + (x * hue) % 40 + noise), byte(120 + y / 3 + noise), byte(50 + noise), 255
      )
    }
  }

  static func psnr(_ sixel: [UInt8], of bitmap: Bitmap) throws -> Double {
    let image = try #require(SixelDecoder.decode(sixel).first)
    return try #require(
      SixelDecoder.psnr(
        image, reference: bitmap.pixels, width: bitmap.width, height: bitmap.height))
  }

  @Test func aTwoColourBitmapPaintsBackExactlyWithItsTransparentPixel() throws {
    // 3×7: top 6 rows red, the 7th blue; the middle column of row 0 transparent.
    let bitmap = try Bitmap.generated(width: 3, height: 7) { x, y in
      if y == 0, x == 1 { return (0, 0, 0, 0) }
      return y < 6 ? (255, 0, 0, 255) : (0, 0, 255, 255)
    }
    let bytes = SixelEncoder.encode(bitmap.pixels, width: 3, height: 7)
    // Red, the most used, is register 0; band 1 is red (transparent hole), band 2 blue.
    #expect(
      String(decoding: bytes, as: UTF8.self)
        == "\u{1B}P0;1;0q\"1;1;3;7#0;2;100;0;0#1;2;0;0;100#0~}~-#1@@@\u{1B}\\")
    let image = try #require(SixelDecoder.decode(bytes).first)
    #expect(image.width == 3 && image.height == 7)
    #expect(image.pixels == bitmap.pixels.enumerated().map { $0.offset == 7 ? 0 : $0.element })
  }

  @Test func longRunsAreRunLengthEncoded() throws {
    let bitmap = try Bitmap.generated(width: 10, height: 1) { _, _ in (0, 0, 0, 255) }
    let text = String(
      decoding: SixelEncoder.encode(bitmap.pixels, width: 10, height: 1), as: UTF8.self)
    #expect(text.hasSuffix("#0!10@\u{1B}\\"))
  }

  @Test func theBandsMainColourIsOneRunUnderTheDetailsPaintedOverIt() throws {
    // White 40×6 with a red dot: white is painted across (one run), red over it; painting
    // white exactly would split it in two runs around the dot.
    let bitmap = try Bitmap.generated(width: 40, height: 6) { x, y in
      x == 20 && y == 2 ? (255, 0, 0, 255) : (255, 255, 255, 255)
    }
    let bytes = SixelEncoder.encode(bitmap.pixels, width: 40, height: 6)
    let text = String(decoding: bytes, as: UTF8.self)
    #expect(text.hasSuffix("#0!40~$#1!20?C\u{1B}\\"))
    let image = try #require(SixelDecoder.decode(bytes).first)
    #expect(image.pixels == bitmap.pixels)
  }

  @Test func overpaintingNeverShowsThroughTransparentPixels() throws {
    // A checkerboard of transparent and two colours: no colour may paint a transparent one.
    let bitmap = try Bitmap.generated(width: 24, height: 13) { x, y in
      if (x + y) % 3 == 0 { return (0, 0, 0, 0) }
      return x < 12 ? (0, 255, 0, 255) : (255, 255, 0, 255)
    }
    let image = try #require(
      SixelDecoder.decode(SixelEncoder.encode(bitmap.pixels, width: 24, height: 13)).first)
    #expect(image.pixels == bitmap.pixels)
  }

  @Test(arguments: [1, 2, 3] as [UInt64])
  func photosComeOutSmallerAndTruerThanWithTheFixedPalette(seed: UInt64) throws {
    let photo = try Self.photo(seed: seed)
    let ours = SixelEncoder.encode(photo.pixels, width: photo.width, height: photo.height)
    let old = FixedPaletteSixel.encode(photo.pixels, width: photo.width, height: photo.height)
    let ourPSNR = try Self.psnr(ours, of: photo)
    let oldPSNR = try Self.psnr(old, of: photo)
    // The fixed cube's dithering costs it ~20 dB here (22 dB against 42); the palette stops
    // adding colours once they would only spell out grain, so the bytes stay within a fifth of
    // the fixed cube's (the colours are fine enough to beat chafa's fidelity, `bench render`).
    #expect(ourPSNR >= 40, "ours \(ourPSNR) dB")
    #expect(ourPSNR >= oldPSNR + 15, "ours \(ourPSNR) dB, fixed palette \(oldPSNR) dB")
    #expect(ours.count <= old.count * 6 / 5, "ours \(ours.count) B, fixed \(old.count) B")
  }
}
