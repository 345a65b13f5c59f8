import CPNG
import CVipsShim
import Foundation
import TesseraTestSupport
import Testing

/// A PNG chunk's length is a number from outside: libpng allocates and clears what a chunk
/// claims before reading it, so every way bytes reach libvips' PNG loader checks the claims
/// against the bytes first (libFuzzer's find: a 161-byte file that cost 1.9 GB and 16 s).
@Suite(.timeLimit(.minutes(1))) struct ChunkClaimTests {
  static let claim: UInt32 = 0x7272_651D  // the fuzzer's: 1.9 GB
  static let overclaiming = CraftedPNG.overclaiming(claim)

  /// Well under the claim, well over what a 4x3 image and libvips' own start-up need.
  static let allowedGrowth = 256 << 20

  @Test func theWalkNamesTheChunkAndItsClaim() {
    var error = [CChar](repeating: 0, count: 128)
    let status = Self.overclaiming.withUnsafeBytes {
      tessera_png_chunks_fit($0.baseAddress, $0.count, &error, error.count)
    }
    #expect(status == -1)
    let text = TestImages.cString(error)
    #expect(text.contains("iTXt") && text.contains("\(Self.claim)"), "\(text)")
  }

  @Test func wholePNGsAndOtherFormatsPass() throws {
    let cases: [(String, Data)] = [
      ("a grey PNG", CraftedPNG.grey(width: 4, height: 3)),
      (
        "a PNG with text",
        CraftedPNG.solid(
          width: 2, height: 2, red: 1, green: 2, blue: 3, text: [("Thumb::URI", "file:///a")],
          kind: .internationalDeflated)
      ),
      ("libvips' PNG", TestImages.gradient(width: 64, height: 48, as: ".png")),
      ("a JPEG", TestImages.gradient(width: 16, height: 16, as: ".jpg")),
      ("bytes after IEND", CraftedPNG.grey(width: 4, height: 3) + Data([1, 2, 3])),
    ]
    for (name, data) in cases {
      var error = [CChar](repeating: 0, count: 128)
      let status = data.withUnsafeBytes {
        tessera_png_chunks_fit($0.baseAddress, $0.count, &error, error.count)
      }
      #expect(status == 0, "\(name): \(TestImages.cString(error))")
    }
  }

  @Test func aCutChunkHeaderIsRefused() {
    let png = CraftedPNG.grey(width: 4, height: 3)
    let cut = png.prefix(8 + 12 + 13 + 5)
    var error = [CChar](repeating: 0, count: 128)
    let status = cut.withUnsafeBytes {
      tessera_png_chunks_fit($0.baseAddress, $0.count, &error, error.count)
    }
    #expect(status == -1, "\(TestImages.cString(error))")
  }

  /// The header read, the thumbnail, the whole load, the text of a local thumbnail and the
  /// orientation: each refuses the file without the peak memory rising by the claim.
  @Test func everyLibvipsEntryRefusesBeforeAllocating() {
    let data = Self.overclaiming
    var statuses: [String: Int32] = [:]
    let growth = PeakMemory.growth {
      var w: Int32 = 0
      var h: Int32 = 0
      var bands: Int32 = 0
      var name = [CChar](repeating: 0, count: 64)
      var pixels: UnsafeMutablePointer<UInt8>?
      var length = 0
      var text: UnsafeMutablePointer<CChar>?
      var textLength = 0
      data.withUnsafeBytes { raw in
        statuses["header"] = tessera_vips_header_allowed(
          raw.baseAddress, raw.count, TESSERA_FORMATS_NETWORK.rawValue, &w, &h, &bands, &name,
          name.count)
        statuses["thumbnail"] = tessera_vips_thumbnail_rgba_allowed(
          raw.baseAddress, raw.count, TESSERA_FORMATS_NETWORK.rawValue, 32, 24,
          Int32(TESSERA_FIT_INSIDE.rawValue), &pixels, &length, &w, &h)
        statuses["load"] = tessera_vips_load_rgba_allowed(
          raw.baseAddress, raw.count, TESSERA_FORMATS_LOCAL.rawValue, &pixels, &length, &w, &h)
        statuses["text"] = tessera_vips_png_text(
          raw.baseAddress, raw.count, 4096, &text, &textLength)
        statuses["orientation"] = tessera_vips_orientation(raw.baseAddress, raw.count)
      }
      tessera_vips_free(pixels)
      tessera_vips_free(text)
    }
    #expect(statuses["header"] == -1)
    #expect(statuses["thumbnail"] == -1)
    #expect(statuses["load"] == -1)
    #expect(statuses["text"] == -1)
    #expect(statuses["orientation"] == 1)
    #expect(growth < Self.allowedGrowth, "peak memory rose by \(growth >> 20) MB")
  }
}
