import CVipsShim
import Foundation
import Testing

struct Decoded: CustomStringConvertible {
  var description: String { "\(width)x\(height) bitmap" }
  let width: Int
  let height: Int
  let pixels: [UInt8]

  func pixel(_ x: Int, _ y: Int) -> [UInt8] {
    let i = (y * width + x) * 4
    return Array(pixels[i..<i + 4])
  }
}

func thumbnail(_ data: Data, _ width: Int, _ height: Int, fit: TesseraFit) -> Decoded? {
  var pixels: UnsafeMutablePointer<UInt8>?
  var length = 0
  var w: Int32 = 0
  var h: Int32 = 0
  let status = data.withUnsafeBytes {
    tessera_vips_thumbnail_rgba(
      $0.baseAddress, $0.count, Int32(width), Int32(height), Int32(fit.rawValue), &pixels,
      &length, &w, &h)
  }
  guard status == 0, let pixels else { return nil }
  defer { tessera_vips_free(pixels) }
  return Decoded(
    width: Int(w), height: Int(h), pixels: Array(UnsafeBufferPointer(start: pixels, count: length)))
}

func header(_ data: Data) -> (width: Int, height: Int, loader: String)? {
  var w: Int32 = 0
  var h: Int32 = 0
  var bands: Int32 = 0
  var loader = [CChar](repeating: 0, count: 64)
  let status = data.withUnsafeBytes {
    tessera_vips_header($0.baseAddress, $0.count, &w, &h, &bands, &loader, loader.count)
  }
  guard status == 0 else { return nil }
  let name = String(
    decoding: loader.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  return (Int(w), Int(h), name)
}

@Suite(.timeLimit(.minutes(1))) struct CVipsShimTests {
  static let formats = [".png", ".jpg[Q=95]", ".webp[Q=95]", ".gif"]

  @Test(arguments: formats)
  func headerReadsDimensionsAndLoader(suffix: String) throws {
    let data = try ImageFixtures.encode(
      ImageFixtures.gradient(width: 300, height: 200), width: 300, height: 200, as: suffix)
    let info = try #require(header(data))
    #expect(info.width == 300)
    #expect(info.height == 200)
    let expected = ["png": "pngload", "jpg": "jpegload", "webp": "webpload", "gif": "gifload"]
    let key = String(suffix.dropFirst().prefix { $0 != "[" })
    #expect(info.loader.hasPrefix(try #require(expected[key])))
  }

  @Test(arguments: formats)
  func thumbnailFitsInsideKeepingAspect(suffix: String) throws {
    let data = try ImageFixtures.encode(
      ImageFixtures.gradient(width: 400, height: 200), width: 400, height: 200, as: suffix)
    let image = try #require(thumbnail(data, 100, 100, fit: TESSERA_FIT_INSIDE))
    #expect(image.width == 100)
    #expect(image.height == 50)
    #expect(image.pixels.count == 100 * 50 * 4)
  }

  @Test(arguments: formats)
  func thumbnailKeepsColours(suffix: String) throws {
    let data = try ImageFixtures.encode(
      ImageFixtures.solid(width: 64, height: 64, rgb: (200, 40, 90)), width: 64, height: 64,
      as: suffix)
    let image = try #require(thumbnail(data, 16, 16, fit: TESSERA_FIT_INSIDE))
    #expect(image.width == 16 && image.height == 16)
    let centre = image.pixel(8, 8)
    // GIF quantises to a palette and JPEG/WebP are lossy: allow a small error.
    #expect(abs(Int(centre[0]) - 200) <= 8)
    #expect(abs(Int(centre[1]) - 40) <= 8)
    #expect(abs(Int(centre[2]) - 90) <= 8)
    #expect(centre[3] == 255)
  }

  @Test func gradientSurvivesDownsampleInOrder() throws {
    let data = try ImageFixtures.encode(
      ImageFixtures.gradient(width: 256, height: 256), width: 256, height: 256, as: ".png")
    let image = try #require(thumbnail(data, 64, 64, fit: TESSERA_FIT_INSIDE))
    // Red grows left to right, green top to bottom.
    #expect(image.pixel(0, 32)[0] < image.pixel(32, 32)[0])
    #expect(image.pixel(32, 32)[0] < image.pixel(63, 32)[0])
    #expect(image.pixel(32, 0)[1] < image.pixel(32, 63)[1])
  }

  @Test func fillCropsToExactBox() throws {
    let data = try ImageFixtures.encode(
      ImageFixtures.gradient(width: 400, height: 200), width: 400, height: 200, as: ".png")
    let image = try #require(thumbnail(data, 100, 100, fit: TESSERA_FIT_FILL))
    #expect(image.width == 100 && image.height == 100)
  }

  @Test func exactIgnoresAspect() throws {
    let data = try ImageFixtures.encode(
      ImageFixtures.gradient(width: 400, height: 200), width: 400, height: 200, as: ".png")
    let image = try #require(thumbnail(data, 30, 70, fit: TESSERA_FIT_EXACT))
    #expect(image.width == 30 && image.height == 70)
  }

  @Test func neverUpscalesWhenFitting() throws {
    let data = try ImageFixtures.encode(
      ImageFixtures.gradient(width: 40, height: 20), width: 40, height: 20, as: ".png")
    let image = try #require(thumbnail(data, 400, 400, fit: TESSERA_FIT_INSIDE))
    #expect(image.width == 40 && image.height == 20)
  }

  @Test func emptyBufferIsAnErrorWithText() {
    // libvips' error buffer is one per process and other suites decode in parallel, so the
    // text is not asserted here; the nil result is.
    #expect(thumbnail(Data(), 10, 10, fit: TESSERA_FIT_INSIDE) == nil)
    #expect(header(Data()) == nil)
    _ = ImageFixtures.lastError()
  }

  @Test func garbageIsAnErrorNotACrash() {
    let garbage = Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
    #expect(header(garbage) == nil)
    #expect(thumbnail(garbage, 10, 10, fit: TESSERA_FIT_INSIDE) == nil)
  }

  @Test(arguments: [".png", ".jpg[Q=95]", ".webp[Q=95]", ".gif"])
  func truncatedImageIsAnError(suffix: String) throws {
    let data = try ImageFixtures.encode(
      ImageFixtures.gradient(width: 300, height: 300), width: 300, height: 300, as: suffix)
    let truncated = data.prefix(data.count / 2)
    #expect(thumbnail(Data(truncated), 50, 50, fit: TESSERA_FIT_INSIDE) == nil)
    _ = ImageFixtures.lastError()
  }

  @Test func nonPositiveTargetIsAnError() throws {
    let data = try ImageFixtures.encode(
      ImageFixtures.gradient(width: 10, height: 10), width: 10, height: 10, as: ".png")
    #expect(thumbnail(data, 0, 10, fit: TESSERA_FIT_INSIDE) == nil)
  }
}
