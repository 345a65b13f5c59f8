import CVipsShim
import Foundation
import TesseraTestSupport
import Testing

@testable import TesseraImages

/// Small images (shared thumbnails, a camera's embedded one) are decoded whole and resized
/// here: the same sizes libvips' thumbnailer gives, the same colours within rounding, at a
/// fraction of its set-up cost.
@Suite(.timeLimit(.minutes(1))) struct SmallImageDecodeTests {
  let decoder = ImageDecoder(maxPixels: 100_000_000)

  /// Shapes and boxes where rounding decides a side: the sizes must be libvips' own, so a
  /// tile made from a thumbnail is the tile the original would have made.
  @Test(arguments: [
    (128, 96, 38, 36), (128, 96, 38, 28), (96, 128, 38, 36), (128, 85, 41, 17), (200, 3, 50, 50),
    (3, 200, 50, 50), (128, 128, 127, 127), (100, 50, 300, 300), (255, 97, 64, 64),
    (1, 1, 5, 5), (128, 96, 128, 96),
  ])
  func sizesAreTheThumbnailersSizes(
    width: Int, height: Int, boxWidth: Int, boxHeight: Int
  )
    throws
  {
    let png = TestImages.gradient(width: width, height: height, as: ".png")
    let box = PixelSize(width: boxWidth, height: boxHeight)
    for (mode, fit) in [
      (ImageRequest.ContentMode.aspectFit, TESSERA_FIT_INSIDE),
      (.aspectFill, TESSERA_FIT_FILL), (.exact, TESSERA_FIT_EXACT),
    ] {
      let small = try decoder.decodeSmall(
        png, targetSize: box, contentMode: mode, allowed: TESSERA_FORMAT_PNG.rawValue)
      let vips = try #require(TestImages.decode(png, fitting: boxWidth, boxHeight, fit: fit))
      #expect(
        small.size == PixelSize(width: vips.width, height: vips.height),
        "\(width)x\(height) into \(box), \(mode)")
      #expect(small.originalSize == PixelSize(width: width, height: height))
      #expect(small.pixels.count == small.width * small.height * 4)
    }
  }

  /// Area averaging and libvips' kernel differ only in rounding and edge weights on a smooth
  /// image: every channel within a few levels.
  @Test func coloursAgreeWithTheThumbnailer() throws {
    let png = TestImages.gradient(width: 128, height: 96, as: ".png")
    let small = try decoder.decodeSmall(
      png, targetSize: PixelSize(width: 32, height: 32), contentMode: .aspectFit,
      allowed: TESSERA_FORMAT_PNG.rawValue)
    let vips = try #require(TestImages.decode(png, fitting: 32, 32))
    #expect(vips.pixels.count == small.pixels.count)
    let worst = zip(small.pixels, vips.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 0
    #expect(worst <= 6, "largest difference \(worst)")
  }

  @Test func fillKeepsTheCentre() throws {
    // Left half black, right half white, 40 px wide: a 20×20 fill of the 40×20 image keeps
    // the middle, half black and half white.
    var pixels: [UInt8] = []
    for _ in 0..<20 {
      for x in 0..<40 { pixels += x < 20 ? [0, 0, 0, 255] : [255, 255, 255, 255] }
    }
    let image = try Image(
      width: 40, height: 20, pixels: pixels, originalSize: PixelSize(width: 40, height: 20))
    let filled = try image.fitted(into: PixelSize(width: 20, height: 20), contentMode: .aspectFill)
    #expect(filled.size == PixelSize(width: 20, height: 20))
    #expect(filled.pixels[(10 * 20 + 2) * 4] == 0)
    #expect(filled.pixels[(10 * 20 + 17) * 4] == 255)
  }

  @Test func neitherFitNorFillScalesUp() throws {
    let image = try Image(
      width: 10, height: 5, pixels: [UInt8](repeating: 7, count: 200),
      originalSize: PixelSize(width: 10, height: 5))
    #expect(
      try image.fitted(into: PixelSize(width: 100, height: 100), contentMode: .aspectFit) == image)
    #expect(
      try image.fitted(into: PixelSize(width: 100, height: 100), contentMode: .aspectFill).size
        == PixelSize(width: 10, height: 5))
    #expect(
      try image.fitted(into: PixelSize(width: 100, height: 100), contentMode: .exact).size
        == PixelSize(width: 100, height: 100))
    #expect(try image.fitted(into: nil, contentMode: .aspectFit) == image)
  }

  /// Larger images than a 1,024-px thumbnail take the thumbnailer (shrink-on-load), never a
  /// whole decode; refused formats and bad boxes are errors as on the usual path.
  @Test func largeImagesBadBoxesAndOtherFormatsTakeTheUsualPath() throws {
    let large = TestImages.gradient(width: 1_100, height: 1_000, as: ".png")
    let image = try decoder.decodeSmall(
      large, targetSize: PixelSize(width: 50, height: 50), contentMode: .aspectFit,
      allowed: TESSERA_FORMAT_PNG.rawValue)
    #expect(image.size == PixelSize(width: 50, height: 45))
    let jpeg = TestImages.gradient(width: 64, height: 64, as: ".jpg")
    #expect(throws: ImagePipelineError.self) {
      try decoder.decodeSmall(
        jpeg, targetSize: PixelSize(width: 8, height: 8), contentMode: .aspectFit,
        allowed: TESSERA_FORMAT_PNG.rawValue)
    }
    #expect(throws: ImagePipelineError.self) {
      try decoder.decodeSmall(
        TestImages.gradient(width: 64, height: 64, as: ".png"),
        targetSize: PixelSize(width: 0, height: 8), contentMode: .aspectFit,
        allowed: TESSERA_FORMAT_PNG.rawValue)
    }
  }
}
