import CVipsShim
import Foundation
import TesseraTestSupport
import Testing

/// The shim's allow-list: the format libvips would pick a loader for, named for a person, and
/// refused before any parsing when it is not allowed.
@Suite(.timeLimit(.minutes(1))) struct FormatAllowListTests {
  static let svg = TestImages.svg(width: 8, height: 8)
  static let pdf = TestImages.pdf(width: 8, height: 8)

  private func format(_ data: Data) -> (bit: Int32, name: String) {
    var name = [CChar](repeating: 0, count: 64)
    let bit = data.withUnsafeBytes { tessera_vips_format($0.baseAddress, $0.count, &name, 64) }
    return (bit, TestImages.cString(name))
  }

  private func headerAllowed(
    _ data: Data, _ allowed: TesseraFormat
  ) -> (status: Int32, name: String) {
    var w: Int32 = 0
    var h: Int32 = 0
    var bands: Int32 = 0
    var name = [CChar](repeating: 0, count: 64)
    let status = data.withUnsafeBytes {
      tessera_vips_header_allowed(
        $0.baseAddress, $0.count, allowed.rawValue, &w, &h, &bands, &name, name.count)
    }
    _ = TestImages.lastError()
    return (status, TestImages.cString(name))
  }

  private func encoded(_ suffix: String) throws -> Data {
    try TestImages.encode(
      TestImages.gradientPixels(width: 16, height: 8), width: 16, height: 8, as: suffix)
  }

  @Test(arguments: [
    (".jpg", TESSERA_FORMAT_JPEG, "JPEG"), (".png", TESSERA_FORMAT_PNG, "PNG"),
    (".webp", TESSERA_FORMAT_WEBP, "WebP"), (".gif", TESSERA_FORMAT_GIF, "GIF"),
    (".tif", TESSERA_FORMAT_TIFF, "TIFF"), (".avif", TESSERA_FORMAT_HEIF, "AVIF"),
  ])
  func photoFormatsAreNamedWithTheirBit(suffix: String, bit: TesseraFormat, name: String) throws {
    let found = format(try encoded(suffix))
    #expect(found.bit == Int32(bit.rawValue))
    #expect(found.name == name)
  }

  /// libvips loads only the modules Tessera decodes photos with, HEIF and JPEG XL, and those
  /// when their bytes first arrive; the ImageMagick, PDF and OpenSlide loaders (and their
  /// libraries) are never in the process, whatever the allow-list would say of them.
  @Test func onlyThePhotoModulesAreLoaded() throws {
    let avif = try encoded(".avif")
    #expect(format(avif) == (Int32(TESSERA_FORMAT_HEIF.rawValue), "AVIF"))
    #expect(tessera_vips_has_operation("heifload_buffer") == 1)
    let jxl = try encoded(".jxl")
    #expect(format(jxl) == (Int32(TESSERA_FORMAT_JXL.rawValue), "JPEG XL"))
    #expect(tessera_vips_has_operation("jxlload_buffer") == 1)
    for absent in ["magickload_buffer", "pdfload_buffer", "openslideload"] {
      #expect(tessera_vips_has_operation(absent) == 0, "\(absent) is loaded")
    }
  }

  /// Named whether or not librsvg and poppler are installed: libvips' own loaders see them
  /// when they are, the shim's magic numbers when they are not.
  @Test func svgAndPDFAreNamedAndNeverAllowed() {
    #expect(format(Self.svg) == (0, "SVG"))
    #expect(format(Self.pdf) == (0, "PDF"))
    #expect(headerAllowed(Self.svg, TESSERA_FORMATS_LOCAL) == (TESSERA_REFUSED_FORMAT, "SVG"))
    #expect(headerAllowed(Self.pdf, TESSERA_FORMATS_LOCAL) == (TESSERA_REFUSED_FORMAT, "PDF"))
  }

  /// When librsvg and poppler are installed, libvips itself picks their loaders for these
  /// bytes (which is what makes the allow-list necessary); either way nothing parses them.
  @Test func libvipsWouldPickTheSVGAndPDFLoadersWhenInstalled() {
    for (data, nickname) in [(Self.svg, "svgload_buffer"), (Self.pdf, "pdfload_buffer")] {
      var w: Int32 = 0
      var h: Int32 = 0
      var bands: Int32 = 0
      var loader = [CChar](repeating: 0, count: 64)
      let status = data.withUnsafeBytes {
        tessera_vips_header($0.baseAddress, $0.count, &w, &h, &bands, &loader, loader.count)
      }
      _ = TestImages.lastError()
      let picked = TestImages.cString(loader)
      #expect(status == TESSERA_REFUSED_FORMAT)
      #expect(picked == nickname || picked.isEmpty, "libvips picked \(picked)")
      #expect(w == 0 && h == 0)
    }
  }

  @Test func otherFormatsLibvipsCouldReadAreNamed() {
    let samples: [(String, String)] = [
      ("P3\n1 1\n255\n0 0 0\n", "PPM"), ("SIMPLE  =                    T", "FITS"),
      ("#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 1 +X 1\n", "Radiance"),
      ("%!PS-Adobe-3.0\n", "PostScript"),
    ]
    for (text, name) in samples {
      let found = format(Data(text.utf8))
      #expect(found.bit == 0, "\(name)")
      #expect(found.name == name)
    }
  }

  @Test func tiffIsAllowedLocallyButNotFromTheNetwork() throws {
    let tiff = try encoded(".tif")
    #expect(headerAllowed(tiff, TESSERA_FORMATS_NETWORK) == (TESSERA_REFUSED_FORMAT, "TIFF"))
    #expect(headerAllowed(tiff, TESSERA_FORMATS_LOCAL) == (0, "TIFF"))
  }

  @Test func thumbnailChecksTheAllowListItself() throws {
    let tiff = try encoded(".tif")
    var pixels: UnsafeMutablePointer<UInt8>?
    var length = 0
    var w: Int32 = 0
    var h: Int32 = 0
    let status = tiff.withUnsafeBytes {
      tessera_vips_thumbnail_rgba_allowed(
        $0.baseAddress, $0.count, TESSERA_FORMATS_NETWORK.rawValue, 8, 8,
        Int32(TESSERA_FIT_INSIDE.rawValue), &pixels, &length, &w, &h)
    }
    _ = TestImages.lastError()
    #expect(status == TESSERA_REFUSED_FORMAT)
    #expect(pixels == nil)
  }

  @Test func unknownBytesAreNotAFormat() {
    #expect(format(Data("hello, world".utf8)).bit == -1)
    #expect(format(Data()).bit == -1)
  }

  /// The error text is copied under libvips' lock while other threads fail decodes at the
  /// same time; every copy is well-formed text (no torn reads, no crash).
  @Test func errorTextIsCopiedSafelyWhileOthersFail() {
    let garbage = Data("not an image at all".utf8)
    DispatchQueue.concurrentPerform(iterations: 8) { _ in
      for _ in 0..<200 {
        var w: Int32 = 0
        var h: Int32 = 0
        var bands: Int32 = 0
        _ = garbage.withUnsafeBytes {
          tessera_vips_header($0.baseAddress, $0.count, &w, &h, &bands, nil, 0)
        }
        var buffer = [CChar](repeating: 0x7F, count: 128)
        let count = tessera_vips_last_error(&buffer, buffer.count)
        #expect(count < buffer.count)
        #expect(buffer[count] == 0)
      }
    }
  }
}
