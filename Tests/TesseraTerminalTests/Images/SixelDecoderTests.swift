import Foundation
import Testing

@testable import TesseraTerminal

@Suite struct SixelDecoderTests {
  static func decode(_ text: String) -> [SixelDecoder.Image] {
    SixelDecoder.decode(Array(text.utf8))
  }

  static func pixel(_ image: SixelDecoder.Image, _ x: Int, _ y: Int) -> [UInt8] {
    let offset = (y * image.width + x) * 4
    return Array(image.pixels[offset..<(offset + 4)])
  }

  @Test func paintsRunsBandsAndColourRegistersAsATerminalDoes() throws {
    // Register 1 red, 2 green (RGB percentages); a run of 3 full sixels, then over them
    // (same band) a green top row; a second band of one red pixel.
    let images = Self.decode(
      "text\u{1B}P0;1;0q\"1;1;4;8#1;2;100;0;0#2;2;0;100;0#1!3~$#2@-#1@\u{1B}\\more")
    let image = try #require(images.first)
    #expect(images.count == 1)
    #expect(image.width == 4 && image.height == 8)
    #expect(Self.pixel(image, 0, 0) == [0, 255, 0, 255])
    #expect(Self.pixel(image, 1, 0) == [255, 0, 0, 255])
    #expect(Self.pixel(image, 2, 5) == [255, 0, 0, 255])
    #expect(Self.pixel(image, 3, 0) == [0, 0, 0, 0])  // Never painted: transparent.
    #expect(Self.pixel(image, 0, 6) == [255, 0, 0, 255])
    #expect(Self.pixel(image, 1, 6) == [0, 0, 0, 0])
  }

  @Test func decHLSColoursPutBlueAtHueZero() throws {
    let blue = try #require(Self.decode("\u{1B}Pq#1;1;0;50;100@\u{1B}\\").first)
    let red = try #require(Self.decode("\u{1B}Pq#1;1;120;50;100@\u{1B}\\").first)
    let green = try #require(Self.decode("\u{1B}Pq#1;1;240;50;100@\u{1B}\\").first)
    #expect(Self.pixel(blue, 0, 0) == [0, 0, 255, 255])
    #expect(Self.pixel(red, 0, 0) == [255, 0, 0, 255])
    #expect(Self.pixel(green, 0, 0) == [0, 255, 0, 255])
  }

  @Test func hostileNumbersAreClampedAndPaintingStopsAtTheLimits() throws {
    let side = SixelDecoderLimits.maximumSide
    // A huge raster, a huge repeat, a register far out of range, a number with 40 digits,
    // and bands below the limit: bounded, no trap.
    let hostile =
      "\u{1B}Pq\"1;1;99999999;99999999#99999999999999999999999999999999999999;2;100;100;100"
      + "!99999999999~" + String(repeating: "-", count: 2_000) + "~\u{1B}\\"
    let image = try #require(Self.decode(hostile).first)
    #expect(image.width == side && image.height == side)
    #expect(Self.pixel(image, side - 1, 5) == [255, 255, 255, 255])
    #expect(Self.pixel(image, 0, side - 1) == [0, 0, 0, 0])
    // Truncated sequences end quietly.
    #expect(Self.decode("\u{1B}Pq#1;2;1").count == 1)
    #expect(Self.decode("\u{1B}P0;1").isEmpty)
    #expect(Self.decode("\u{1B}Pq!").first?.width == 0)
  }

  @Test func psnrIsInfiniteForEqualPixelsAndFallsWithTheError() throws {
    let reference: [UInt8] = [10, 20, 30, 255, 200, 100, 50, 255]
    let same = SixelDecoder.Image(width: 2, height: 1, pixels: reference)
    #expect(SixelDecoder.psnr(same, reference: reference, width: 2, height: 1) == .infinity)
    var off = reference
    off[0] += 16  // One channel off by 16 of six: MSE 256 / 6.
    let psnr = try #require(
      SixelDecoder.psnr(
        SixelDecoder.Image(width: 2, height: 1, pixels: off), reference: reference, width: 2,
        height: 1))
    #expect(abs(psnr - 10 * log10(65_025 / (256.0 / 6))) < 1e-9)
    // A missing image counts as black, not as a match.
    let missing = SixelDecoder.Image(width: 0, height: 0, pixels: [])
    #expect(
      (SixelDecoder.psnr(missing, reference: reference, width: 2, height: 1) ?? .infinity) < 20)
  }
}
