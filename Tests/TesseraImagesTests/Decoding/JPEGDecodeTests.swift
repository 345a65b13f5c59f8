import CJPEG
import CVipsShim
import Foundation
import TesseraTestSupport
import TesseraUtilities
import Testing

@testable import TesseraImages

/// Photos' JPEGs are decoded by libjpeg-turbo without libvips: the same sizes libvips'
/// thumbnailer gives, the same colours within resampling, the same orientation; what libvips
/// decodes differently (CMYK, an ICC profile, upscaling) still goes to libvips; hostile bytes
/// are errors, never a crash or an allocation the header asked for.
@Suite(.timeLimit(.minutes(1))) struct JPEGDecodeTests {
  let decoder = ImageDecoder(maxPixels: 100_000_000)

  /// A photo-like JPEG: a gradient with noise, so the DCT has detail to keep.
  static func photo(width: Int, height: Int, suffix: String = ".jpg[Q=90]") -> Data {
    var random = SplitMix64(seed: UInt64(width * 7_919 + height))
    var pixels = TestImages.gradientPixels(width: width, height: height)
    for index in pixels.indices where index % 4 != 3 {
      let noise = Int(random.next() % 17) - 8
      pixels[index] = UInt8(clamping: Int(pixels[index]) + noise)
    }
    return (try? TestImages.encode(pixels, width: width, height: height, as: suffix)) ?? Data()
  }

  /// A 16×8 CMYK JPEG (Adobe APP14, four components), as a print workflow writes them.
  static let cmyk = Data(
    base64Encoded:
      "/9j/7gAOQWRvYmUAZAAAAAAA/9sAQwAIBgYHBgUIBwcHCQkICgwUDQwLCwwZEhMPFB0aHx4dGhwcICQuJyAiLCMcHCg3KSww"
      + "MTQ0NB8nOT04MjwuMzQy/8AAFAgACAAQBEMRAE0RAFkRAEsRAP/EAB8AAAEFAQEBAQEBAAAAAAAAAAABAgMEBQYHCAkKC//E"
      + "ALUQAAIBAwMCBAMFBQQEAAABfQECAwAEEQUSITFBBhNRYQcicRQygZGhCCNCscEVUtHwJDNicoIJChYXGBkaJSYnKCkqNDU2"
      + "Nzg5OkNERUZHSElKU1RVVldYWVpjZGVmZ2hpanN0dXZ3eHl6g4SFhoeIiYqSk5SVlpeYmZqio6Slpqeoqaqys7S1tre4ubrC"
      + "w8TFxsfIycrS09TV1tfY2drh4uPk5ebn6Onq8fLz9PX29/j5+v/aAA4EQwBNAFkASwAAPwD0CvTK9Erl6KKKK//Z")!

  @Test(arguments: [
    (1_200, 900, 160, 120), (1_200, 900, 38, 36), (900, 1_200, 80, 80), (1_000, 37, 64, 64),
    (640, 480, 640, 480), (641, 479, 100, 100), (333, 999, 17, 50),
  ])
  func sizesAndColoursAreTheThumbnailers(
    width: Int, height: Int, boxWidth: Int, boxHeight: Int
  ) throws {
    let jpeg = Self.photo(width: width, height: height)
    let original = PixelSize(width: width, height: height)
    let box = PixelSize(width: boxWidth, height: boxHeight)
    for (mode, fit) in [
      (ImageRequest.ContentMode.aspectFit, TESSERA_FIT_INSIDE),
      (.aspectFill, TESSERA_FIT_FILL), (.exact, TESSERA_FIT_EXACT),
    ] {
      let label = "\(width)x\(height) into \(box), \(mode)"
      let upscales = mode == .exact && (boxWidth > width || boxHeight > height)
      guard
        let ours = try decoder.decodeJPEG(jpeg, original: original, box: box, contentMode: mode)
      else {
        #expect(upscales, "\(label): left to libvips")
        continue
      }
      let vips = try #require(TestImages.decode(jpeg, fitting: boxWidth, boxHeight, fit: fit))
      // The plan's size, from the photo's own sides. libvips computes it from the sides its
      // shrink-on-load left (rounded up by libjpeg), which can round a half the other way.
      let plan = Image.fittingPlan(of: original, into: box, contentMode: mode)
      #expect(ours.size == PixelSize(width: plan.crop.width, height: plan.crop.height), "\(label)")
      #expect(abs(ours.width - vips.width) <= 1 && abs(ours.height - vips.height) <= 1, "\(label)")
      #expect(ours.originalSize == original, "\(label)")
      guard ours.pixels.count == vips.pixels.count else { continue }
      let differences = zip(ours.pixels, vips.pixels).map { abs(Int($0) - Int($1)) }
      let mean = Double(differences.reduce(0, +)) / Double(differences.count)
      // Area averaging against libvips' Lanczos kernel on a noisy image: close on average.
      #expect(mean < 4, "\(label): mean difference \(mean)")
    }
  }

  @Test func theUsualDecodeTakesThisPathAndLoadsNoLibvips() throws {
    let jpeg = Self.photo(width: 800, height: 600)
    let image = try decoder.decode(
      jpeg, targetSize: PixelSize(width: 100, height: 100), contentMode: .aspectFit,
      source: .localFolder)
    #expect(image.size == PixelSize(width: 100, height: 75))
    #expect(try decoder.header(of: jpeg, source: .network) == PixelSize(width: 800, height: 600))
    #expect(ImageDecoder.isJPEGByName("/p/IMG_0001.JPG"))
    #expect(ImageDecoder.isJPEGByName("https://x/a.jpeg?size=m"))
    #expect(!ImageDecoder.isJPEGByName("https://x.jpg/a.png"))
    #expect(!ImageDecoder.isJPEGByName("https://x/photo"))
  }

  @Test func cmykAndICCProfilesAndUpscalingGoToLibvips() throws {
    let box = PixelSize(width: 8, height: 4)
    #expect(
      try decoder.decodeJPEG(
        Self.cmyk, original: PixelSize(width: 16, height: 8), box: box, contentMode: .aspectFit)
        == nil)
    // Still decoded, by libvips, through the usual call.
    let cmyk = try decoder.decode(
      Self.cmyk, targetSize: box, contentMode: .aspectFit, source: .localFolder)
    #expect(cmyk.size == box)

    let profiled = Self.photo(width: 64, height: 48, suffix: ".jpg[profile=srgb]")
    #expect(!profiled.isEmpty)
    #expect(
      try decoder.decodeJPEG(
        profiled, original: PixelSize(width: 64, height: 48), box: box, contentMode: .aspectFit)
        == nil)

    let small = Self.photo(width: 20, height: 10)
    #expect(
      try decoder.decodeJPEG(
        small, original: PixelSize(width: 20, height: 10),
        box: PixelSize(width: 40, height: 40), contentMode: .exact) == nil)
    let stretched = try decoder.decode(
      small, targetSize: PixelSize(width: 40, height: 40), contentMode: .exact,
      source: .localFolder)
    #expect(stretched.size == PixelSize(width: 40, height: 40))
  }

  /// A header that claims more pixels than allowed is refused before anything is allocated;
  /// a cut or scrambled file is an error or a picture, never a crash.
  /// The headers of a JPEG of `side`×`side` pixels, 4:2:0, up to its first scan: all
  /// libjpeg reads before it would allocate. `progressive` picks SOF2 over SOF0.
  static func headersOnly(side: Int, progressive: Bool) -> Data {
    let high = UInt8(side >> 8)
    let low = UInt8(side & 0xFF)
    let frame: [UInt8] =
      [0xFF, progressive ? 0xC2 : 0xC0, 0x00, 0x11, 0x08, high, low, high, low, 0x03]
      + [0x01, 0x22, 0x00, 0x02, 0x11, 0x01, 0x03, 0x11, 0x01]
    // Baseline needs its tables before the scan; progressive's DC scan needs none here.
    let tables: [UInt8] =
      [0xFF, 0xDB, 0x00, 0x43, 0x00] + [UInt8](repeating: 1, count: 64)
      + [0xFF, 0xC4, 0x00, 0x14, 0x00] + [1] + [UInt8](repeating: 0, count: 15) + [0]
      + [0xFF, 0xC4, 0x00, 0x14, 0x10] + [1] + [UInt8](repeating: 0, count: 15) + [0]
    let scan: [UInt8] = [
      0xFF, 0xDA, 0x00, 0x0C, 0x03, 0x01, 0x00, 0x02, 0x00, 0x03, 0x00,
      0x00, progressive ? 0x00 : 0x3F, 0x00,
    ]
    return Data([0xFF, 0xD8] + tables + frame + scan + [0x00, 0x00, 0xFF, 0xD9])
  }

  /// A 12-byte-scan progressive JPEG claiming 10000×10000 (within the 100-megapixel limit)
  /// would make libjpeg allocate 287 MiB of coefficients before its first pixel: refused with
  /// the figures, before anything is allocated, and before libvips could be asked; a baseline
  /// JPEG of the same size is not (it decodes a row of blocks at a time).
  @Test func aProgressiveJPEGPastTheMemoryCapIsRefusedFirst() throws {
    let bomb = Self.headersOnly(side: 10_000, progressive: true)
    var width: Int32 = 0
    var height: Int32 = 0
    var error = [CChar](repeating: 0, count: 256)
    let status = bomb.withUnsafeBytes {
      tessera_jpeg_header($0.baseAddress, $0.count, &width, &height, &error, error.count)
    }
    #expect(status == TESSERA_JPEG_TOO_LARGE, "\(TestImages.cString(error))")
    #expect(width == 10_000 && height == 10_000)
    #expect(
      TestImages.cString(error).contains("needs 287 MB to decode"), "\(TestImages.cString(error))")
    let thrown = #expect(throws: ImagePipelineError.self) {
      try decoder.decode(
        bomb, targetSize: PixelSize(width: 100, height: 100), source: .localFolder)
    }
    #expect(
      "\(thrown.map { "\($0)" } ?? "")".contains("progressive JPEG"),
      "\(String(describing: thrown))")
    let baseline = Self.headersOnly(side: 10_000, progressive: false)
    let baselineStatus = baseline.withUnsafeBytes {
      tessera_jpeg_header($0.baseAddress, $0.count, &width, &height, &error, error.count)
    }
    #expect(baselineStatus == 0, "\(TestImages.cString(error))")
    // A progressive photo of a camera's size is decoded as before.
    let photo = Self.photo(width: 1_200, height: 900, suffix: ".jpg[Q=90,interlace]")
    let image = try decoder.decode(
      photo, targetSize: PixelSize(width: 120, height: 90), source: .localFolder)
    #expect(image.width == 120 && image.height == 90)
  }

  @Test func hostileBytesAreErrors() throws {
    var bomb = [UInt8](Self.photo(width: 64, height: 48))
    // The SOF0 segment's height and width (FF C0, length, precision, then the sides).
    let sof = try #require(
      bomb.indices.dropLast(9).first { bomb[$0] == 0xFF && bomb[$0 + 1] == 0xC0 })
    // 60,000 × 60,000: within libjpeg's own limit, far past ours.
    bomb[sof + 5] = 0xEA
    bomb[sof + 6] = 0x60
    bomb[sof + 7] = 0xEA
    bomb[sof + 8] = 0x60
    #expect(throws: ImagePipelineError.self) {
      try decoder.decode(
        Data(bomb), targetSize: PixelSize(width: 10, height: 10), contentMode: .aspectFit,
        source: .localFolder)
    }
    var pixels: UnsafeMutablePointer<UInt8>?
    var length = 0
    var width: Int32 = 0
    var height: Int32 = 0
    var error = [CChar](repeating: 0, count: 256)
    let status = bomb.withUnsafeBytes {
      tessera_jpeg_decode_rgba(
        $0.baseAddress, $0.count, 1, 1, 65_535, 1_000_000, &pixels, &length, &width, &height,
        &error, error.count)
    }
    #expect(status == -1)
    #expect(pixels == nil)
    #expect(ImageDecoder.string(error).contains("60000x60000"))

    let whole = [UInt8](Self.photo(width: 256, height: 192))
    var random = SplitMix64(seed: 11)
    for cut in stride(from: 3, to: whole.count, by: max(1, whole.count / 40)) {
      var bytes = Array(whole[..<cut])
      if cut % 2 == 0, bytes.count > 700 {
        for _ in 0..<8 { bytes[600 + Int(random.next() % UInt64(bytes.count - 600))] ^= 0x5A }
      }
      do {
        let image = try decoder.decode(
          Data(bytes), targetSize: PixelSize(width: 32, height: 32), contentMode: .aspectFit,
          source: .localFolder)
        #expect(image.pixels.count == image.width * image.height * 4)
      } catch {
        #expect(!error.description.isEmpty)
      }
    }
    #expect(throws: ImagePipelineError.self) {
      try decoder.decode(
        Data([0xFF, 0xD8, 0xFF]), targetSize: PixelSize(width: 8, height: 8),
        contentMode: .aspectFit, source: .localFolder)
    }
  }

  @Test func thumbnailsAreWrittenByLibpngWithTheirText() throws {
    let image = try Image(
      width: 3, height: 2, pixels: TestImages.gradientPixels(width: 3, height: 2),
      originalSize: PixelSize(width: 3, height: 2))
    let png = try #require(ThumbnailPNG.encode(image, text: [("Thumb::URI", "file:///a.jpg")]))
    let decoded = try ImageDecoder(maxPixels: 100).decodeSharedThumbnail(png)
    #expect(decoded.pixels == image.pixels)
    #expect(try PNGTextChunks.parse(png).text["Thumb::URI"] == "file:///a.jpg")
    #expect(ThumbnailPNG.mimeType(of: Self.photo(width: 8, height: 8)) == "image/jpeg")
  }
}

/// An image is made only over exactly width × height × 4 bytes: libpng's and libvips' writers,
/// the orientation turn and the fitting crop all read that many.
@Suite struct ImagePixelCountTests {
  @Test(arguments: [
    (3, 2, 23), (3, 2, 25), (3, 2, 0), (0, 2, 0), (-1, -1, 4), (Int.max, 2, 8),
    (1 << 40, 1 << 40, 4),
  ])
  func anyOtherCountIsRefused(width: Int, height: Int, count: Int) {
    #expect(throws: ImagePipelineError.self) {
      try Image(
        width: width, height: height, pixels: [UInt8](repeating: 0, count: count),
        originalSize: PixelSize(width: 1, height: 1))
    }
  }

  @Test func theExactCountMakesAnImage() throws {
    let image = try Image(
      width: 3, height: 2, pixels: [UInt8](repeating: 9, count: 24),
      originalSize: PixelSize(width: 30, height: 20))
    #expect(image.size == PixelSize(width: 3, height: 2))
    #expect(try image.turnedUpright(from: 6).size == PixelSize(width: 2, height: 3))
  }
}
