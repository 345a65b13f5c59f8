import Foundation
import TesseraTestSupport
import TesseraUtilities

/// The "other program" of the thumbnail interop tests: PNGs built chunk by chunk as another
/// thumbnailer would write them (plain or compressed text; zlib deflates and checksums), and
/// a tEXt reader written here from the PNG specification that shares no code with Tessera's
/// parser.
enum HandMadePNG {
  /// How text is stored: plain (tEXt), or deflated (zTXt, or iTXt with its compression flag).
  enum TextChunk: String, Sendable, CaseIterable {
    case tEXt, zTXt, compressedITXt
  }

  /// An RGB PNG of one colour with `text` as `kind` chunks.
  static func solid(
    width: Int, height: Int, red: UInt8, green: UInt8, blue: UInt8, text: [(String, String)],
    kind: TextChunk = .tEXt
  ) -> Data {
    let stored: PNGWriter.TextKind =
      switch kind {
      case .tEXt: .plain
      case .zTXt: .deflated
      case .compressedITXt: .internationalDeflated
      }
    return CraftedPNG.solid(
      width: width, height: height, red: red, green: green, blue: blue, text: text, kind: stored)
  }

  /// Every tEXt chunk of `data` (keyword → text), and the IHDR size; nil if it is no PNG.
  static func read(_ data: Data) -> (width: Int, height: Int, text: [String: String])? {
    let bytes = [UInt8](data)
    guard bytes.count > 33, bytes[0] == 0x89, bytes[1] == 0x50 else { return nil }
    var text: [String: String] = [:]
    var offset = 8
    var size = (0, 0)
    while offset + 12 <= bytes.count {
      let length = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
      let type = String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self)
      let body = Array(bytes[offset + 8..<offset + 8 + length])
      if type == "IHDR" {
        size = (
          body[0..<4].reduce(0) { $0 << 8 | Int($1) }, body[4..<8].reduce(0) { $0 << 8 | Int($1) }
        )
      }
      if type == "tEXt", let nul = body.firstIndex(of: 0) {
        text[String(decoding: body[..<nul], as: UTF8.self)] = String(
          decoding: body[(nul + 1)...], as: UTF8.self)
      }
      if type == "IEND" { break }
      offset += 12 + length
    }
    return (size.0, size.1, text)
  }
}
