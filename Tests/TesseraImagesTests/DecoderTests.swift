import Foundation
import Testing

@testable import TesseraImages

@Suite struct DecoderTests {
  let decoder = ImageDecoder(maxPixels: 100_000_000)
  let source = Fixtures.image(width: 400, height: 200, as: ".jpg[Q=90]")

  @Test func aspectFitKeepsTheAspectRatio() throws {
    let image = try decoder.decode(
      source, targetSize: PixelSize(width: 100, height: 100), contentMode: .aspectFit)
    #expect(image.size == PixelSize(width: 100, height: 50))
    #expect(image.pixels.count == 100 * 50 * 4)
    #expect(image.originalSize == PixelSize(width: 400, height: 200))
    #expect(image.aspectRatio == 2)
    #expect(image.cost == 20_000)
  }

  @Test func aspectFillCropsToTheBox() throws {
    let image = try decoder.decode(
      source, targetSize: PixelSize(width: 100, height: 100), contentMode: .aspectFill)
    #expect(image.size == PixelSize(width: 100, height: 100))
  }

  @Test func exactIgnoresTheAspectRatio() throws {
    let image = try decoder.decode(
      source, targetSize: PixelSize(width: 30, height: 70), contentMode: .exact)
    #expect(image.size == PixelSize(width: 30, height: 70))
  }

  @Test func noTargetDecodesTheOriginalSize() throws {
    let image = try decoder.decode(source, targetSize: nil, contentMode: .aspectFill)
    #expect(image.size == PixelSize(width: 400, height: 200))
  }

  @Test func pixelsFollowTheSource() throws {
    let image = try decoder.decode(
      Fixtures.image(width: 256, height: 256), targetSize: PixelSize(width: 64, height: 64),
      contentMode: .aspectFit)
    func red(_ x: Int, _ y: Int) -> UInt8 { image.pixels[(y * 64 + x) * 4] }
    #expect(red(0, 32) < red(32, 32) && red(32, 32) < red(63, 32))
    #expect(image.pixels[3] == 255)
  }

  @Test func nonPositiveTargetIsAnError() {
    #expect(throws: ImagePipelineError.self) {
      try decoder.decode(source, targetSize: PixelSize(width: 0, height: 10), contentMode: .exact)
    }
  }
}
