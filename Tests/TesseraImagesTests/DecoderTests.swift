import Foundation
import TesseraTestSupport
import Testing

@testable import TesseraImages

@Suite(.timeLimit(.minutes(1))) struct DecoderTests {
  let decoder = ImageDecoder(maxPixels: 100_000_000)
  let source = TestImages.gradient(width: 400, height: 200, as: ".jpg[Q=90]")

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
      TestImages.gradient(width: 256, height: 256), targetSize: PixelSize(width: 64, height: 64),
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

/// Numbers from an image's header and from the request's box, checked before libvips sees
/// them.
@Suite(.timeLimit(.minutes(1))) struct DecoderLimitTests {
  let decoder = ImageDecoder(maxPixels: 100_000_000)

  @Test func aSideOverTheLimitIsRefusedFromTheHeaderEvenWithFewPixels() {
    let tall = Fixtures.pngHeader(width: 1, height: 70_000)
    #expect(throws: ImagePipelineError.tooLarge(.side(width: 1, height: 70_000, limit: 65_535))) {
      try decoder.decode(
        tall, targetSize: PixelSize(width: 64, height: 64), contentMode: .aspectFit)
    }
  }

  @Test func anExtremeShapeWithinTheLimitsDecodesNoLargerThanTheBox() throws {
    let strip = TestImages.gradient(width: 1, height: 4_000)
    for mode in [ImageRequest.ContentMode.aspectFit, .aspectFill] {
      let image = try decoder.decode(
        strip, targetSize: PixelSize(width: 256, height: 256), contentMode: mode)
      #expect(image.width <= 256 && image.height <= 256)
      #expect(image.originalSize == PixelSize(width: 1, height: 4_000))
    }
  }

  @Test func anExactBoxOverThePixelLimitIsRefusedBeforeDecoding() {
    let huge = PixelSize(width: Int.max, height: Int.max)
    #expect(
      throws: ImagePipelineError.tooLarge(
        .pixels(width: 65_535, height: 65_535, limit: 100_000_000))
    ) {
      try decoder.decode(Fixtures.png, targetSize: huge, contentMode: .exact)
    }
  }

  @Test func aHugeFittingBoxIsClampedNotTrusted() throws {
    let huge = PixelSize(width: Int.max, height: Int.max)
    let image = try decoder.decode(Fixtures.png, targetSize: huge, contentMode: .aspectFit)
    #expect(image.size == PixelSize(width: 64, height: 48))
  }
}
