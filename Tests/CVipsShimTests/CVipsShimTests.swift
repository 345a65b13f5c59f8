import CVipsShim
import Foundation
import TesseraGeometry
import TesseraTestSupport
import Testing

@Suite(.timeLimit(.minutes(1))) struct CVipsShimTests {
  static let formats = [".png", ".jpg[Q=95]", ".webp[Q=95]", ".gif"]

  @Test(arguments: formats)
  func headerReadsDimensionsAndLoader(suffix: String) throws {
    let data = try TestImages.encode(
      TestImages.gradientPixels(width: 300, height: 200), width: 300, height: 200, as: suffix)
    let info = try #require(TestImages.header(data))
    #expect(info.width == 300)
    #expect(info.height == 200)
    let expected = ["png": "pngload", "jpg": "jpegload", "webp": "webpload", "gif": "gifload"]
    let key = String(suffix.dropFirst().prefix { $0 != "[" })
    #expect(info.loader.hasPrefix(try #require(expected[key])))
  }

  @Test(arguments: formats)
  func thumbnailFitsInsideKeepingAspect(suffix: String) throws {
    let data = try TestImages.encode(
      TestImages.gradientPixels(width: 400, height: 200), width: 400, height: 200, as: suffix)
    let image = try #require(TestImages.decode(data, fitting: 100, 100, fit: TESSERA_FIT_INSIDE))
    #expect(image.width == 100)
    #expect(image.height == 50)
    #expect(image.pixels.count == 100 * 50 * 4)
  }

  @Test(arguments: formats)
  func thumbnailKeepsColours(suffix: String) throws {
    let data = try TestImages.encode(
      TestImages.solidPixels(width: 64, height: 64, colour: RGB(200, 40, 90)), width: 64,
      height: 64,
      as: suffix)
    let image = try #require(TestImages.decode(data, fitting: 16, 16, fit: TESSERA_FIT_INSIDE))
    #expect(image.width == 16 && image.height == 16)
    let centre = image.pixel(8, 8)
    // GIF quantises to a palette and JPEG/WebP are lossy: allow a small error.
    #expect(abs(Int(centre[0]) - 200) <= 8)
    #expect(abs(Int(centre[1]) - 40) <= 8)
    #expect(abs(Int(centre[2]) - 90) <= 8)
    #expect(centre[3] == 255)
  }

  @Test func gradientSurvivesDownsampleInOrder() throws {
    let data = try TestImages.encode(
      TestImages.gradientPixels(width: 256, height: 256), width: 256, height: 256, as: ".png")
    let image = try #require(TestImages.decode(data, fitting: 64, 64, fit: TESSERA_FIT_INSIDE))
    // Red grows left to right, green top to bottom.
    #expect(image.pixel(0, 32)[0] < image.pixel(32, 32)[0])
    #expect(image.pixel(32, 32)[0] < image.pixel(63, 32)[0])
    #expect(image.pixel(32, 0)[1] < image.pixel(32, 63)[1])
  }

  @Test func fillCropsToExactBox() throws {
    let data = try TestImages.encode(
      TestImages.gradientPixels(width: 400, height: 200), width: 400, height: 200, as: ".png")
    let image = try #require(TestImages.decode(data, fitting: 100, 100, fit: TESSERA_FIT_FILL))
    #expect(image.width == 100 && image.height == 100)
  }

  @Test func exactIgnoresAspect() throws {
    let data = try TestImages.encode(
      TestImages.gradientPixels(width: 400, height: 200), width: 400, height: 200, as: ".png")
    let image = try #require(TestImages.decode(data, fitting: 30, 70, fit: TESSERA_FIT_EXACT))
    #expect(image.width == 30 && image.height == 70)
  }

  @Test func neverUpscalesWhenFitting() throws {
    let data = try TestImages.encode(
      TestImages.gradientPixels(width: 40, height: 20), width: 40, height: 20, as: ".png")
    let image = try #require(TestImages.decode(data, fitting: 400, 400, fit: TESSERA_FIT_INSIDE))
    #expect(image.width == 40 && image.height == 20)
  }

  @Test func emptyBufferIsAnErrorWithText() {
    // libvips' error buffer is one per process and other suites decode in parallel, so the
    // text is not asserted here; the nil result is.
    #expect(TestImages.decode(Data(), fitting: 10, 10, fit: TESSERA_FIT_INSIDE) == nil)
    #expect(TestImages.header(Data()) == nil)
    _ = TestImages.lastError()
  }

  @Test func garbageIsAnErrorNotACrash() {
    let garbage = Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
    #expect(TestImages.header(garbage) == nil)
    #expect(TestImages.decode(garbage, fitting: 10, 10, fit: TESSERA_FIT_INSIDE) == nil)
  }

  @Test(arguments: [".png", ".jpg[Q=95]", ".webp[Q=95]", ".gif"])
  func truncatedImageIsAnError(suffix: String) throws {
    let data = try TestImages.encode(
      TestImages.gradientPixels(width: 300, height: 300), width: 300, height: 300, as: suffix)
    let truncated = data.prefix(data.count / 2)
    #expect(TestImages.decode(Data(truncated), fitting: 50, 50, fit: TESSERA_FIT_INSIDE) == nil)
    _ = TestImages.lastError()
  }

  @Test func nonPositiveTargetIsAnError() throws {
    let data = try TestImages.encode(
      TestImages.gradientPixels(width: 10, height: 10), width: 10, height: 10, as: ".png")
    #expect(TestImages.decode(data, fitting: 0, 10, fit: TESSERA_FIT_INSIDE) == nil)
  }
}
