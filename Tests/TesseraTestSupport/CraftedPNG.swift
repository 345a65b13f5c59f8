import Foundation
import TesseraUtilities

/// PNG files built chunk by chunk, for tests that need a file no encoder would write (a
/// header that claims more pixels than the data holds). Checksums and deflate are zlib's.
package enum CraftedPNG {
  package static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

  /// One chunk: length, type, body and the CRC-32 of type and body.
  package static func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
    let typed = Array(type.utf8) + body
    return bigEndian(UInt32(body.count)) + typed + bigEndian(PNGWriter.crc32(typed[...]))
  }

  /// A PNG claiming `width`x`height` 8-bit RGBA pixels whose image data inflates to only 1,000
  /// zero bytes: a decompression bomb's shape, without the bomb.
  package static func claiming(width: UInt32, height: UInt32) -> Data {
    let header = bigEndian(width) + bigEndian(height) + [8, 6, 0, 0, 0]
    return Data(
      signature + chunk("IHDR", header)
        + chunk("IDAT", deflated([UInt8](repeating: 0, count: 1000)))
        + chunk("IEND", []))
  }

  /// `bytes` as one zlib stream, by zlib.
  package static func deflated(_ bytes: [UInt8]) -> [UInt8] {
    guard let stream = PNGWriter.deflate(bytes, level: 6) else {
      preconditionFailure("zlib could not compress")
    }
    return stream
  }

  /// An 8-bit RGB PNG of `width`x`height` pixels of one colour, built chunk by chunk so that
  /// it may hold what an encoder refuses to write (a zero side, an empty or over-long keyword),
  /// with `text` (keyword, text) stored as `kind` says. Deflate and checksums are zlib's.
  package static func solid(
    width: Int, height: Int, red: UInt8, green: UInt8, blue: UInt8,
    text: [(String, String)] = [], kind: PNGWriter.TextKind = .plain
  ) -> Data {
    var rows: [UInt8] = []
    for _ in 0..<max(0, height) where width > 0 {
      rows.append(0)  // filter: none
      for _ in 0..<width { rows += [red, green, blue] }
    }
    let header = bigEndian(UInt32(width)) + bigEndian(UInt32(height)) + [8, 2, 0, 0, 0]
    var png = signature + chunk("IHDR", header)
    for (key, value) in text {
      let keyword = Array(key.utf8) + [0]
      switch kind {
      case .plain: png += chunk("tEXt", keyword + Array(value.utf8))
      // Compression method 0 (deflate).
      case .deflated: png += chunk("zTXt", keyword + [0] + deflated(Array(value.utf8)))
      // Compressed, method 0, no language tag, no translated keyword.
      case .internationalDeflated:
        png += chunk("iTXt", keyword + [1, 0, 0, 0] + deflated(Array(value.utf8)))
      }
    }
    return Data(png + chunk("IDAT", deflated(rows)) + chunk("IEND", []))
  }

  /// A 4x3 grey PNG with a text chunk after its header whose length field claims `claim`
  /// bytes while it holds 16 (the rest of the file): libpng allocates and clears a chunk's
  /// claimed length before reading it, so the claim is the memory a reader without a check
  /// spends. The shape libFuzzer found in the shim's harness (a 161-byte file claiming 1.9 GB).
  package static func overclaiming(_ claim: UInt32) -> Data {
    let png = [UInt8](grey(width: 4, height: 3))
    let afterHeader = signature.count + 12 + 13
    let body = Array("Thumb::MTime".utf8) + [0, 1, 0, 0]
    return Data(
      png[..<afterHeader] + bigEndian(claim) + Array("iTXt".utf8) + body
        + png[afterHeader...])
  }

  /// An RGB PNG of `width`x`height` pixels of one grey.
  package static func grey(width: Int, height: Int, level: UInt8 = 128) -> Data {
    solid(width: width, height: height, red: level, green: level, blue: level)
  }

  private static func bigEndian(_ value: UInt32) -> [UInt8] {
    withUnsafeBytes(of: value.bigEndian, Array.init)
  }
}
