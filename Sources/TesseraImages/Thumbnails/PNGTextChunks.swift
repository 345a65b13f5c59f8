import Foundation
import TesseraUtilities

/// What a thumbnail reader needs from a PNG file: its pixel size (IHDR) and its text (tEXt,
/// and uncompressed iTXt) — parsed from bytes some other program wrote, so every length is
/// checked against the data left and `ThumbnailLimits`, and every chunk's CRC is verified.
/// Compressed text (zTXt, compressed iTXt) is only counted here; `withCompressedText(of:)`
/// has libvips' PNG loader inflate it.
///
/// - Complexity: O(size of the data), one pass; no chunk is copied but text values.
struct PNGTextChunks: Equatable, Sendable {
  /// The image's width in pixels, from IHDR (1…2³¹ − 1).
  let width: Int
  /// The image's height in pixels, from IHDR (1…2³¹ − 1).
  let height: Int
  /// Keyword → text, the first of each keyword kept.
  var text: [String: String]
  /// zTXt and compressed iTXt chunks seen (their text is not in `text`).
  var compressedTextChunks = 0

  /// Why some bytes are not a PNG a thumbnail can be read from.
  enum ParseError: Error, Equatable, CustomStringConvertible {
    case notPNG
    case truncated
    case missingHeader
    case badHeader
    case badChecksum(chunk: String)
    case tooManyTextChunks

    var description: String {
      switch self {
      case .notPNG: "the file does not start with PNG's signature"
      case .truncated: "the PNG ends in the middle of a chunk"
      case .missingHeader: "the PNG's first chunk is not its header (IHDR)"
      case .badHeader: "the PNG's header gives an impossible size"
      case .badChecksum(let chunk): "the PNG's \(chunk) chunk fails its checksum"
      case .tooManyTextChunks:
        "the PNG has more than \(ThumbnailLimits.maxTextChunks) text chunks"
      }
    }
  }

  static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

  /// Parses `data` up to its IEND chunk, which must be there.
  static func parse(_ data: Data) throws(ParseError) -> PNGTextChunks {
    let bytes = [UInt8](data)
    guard bytes.count >= 8, Array(bytes[0..<8]) == signature else { throw .notPNG }
    var offset = 8
    var size: (width: Int, height: Int)?
    var text: [String: String] = [:]
    var textChunks = 0
    var compressed = 0
    var ended = false
    while offset < bytes.count {
      guard bytes.count - offset >= 12 else { throw .truncated }
      let length = Int(readUInt32(bytes, at: offset))
      // Length, type and CRC are 12 bytes; the data must fit in what is left.
      guard length <= bytes.count - offset - 12 else { throw .truncated }
      let typeStart = offset + 4
      let dataStart = offset + 8
      let dataEnd = dataStart + length
      let type = String(decoding: bytes[typeStart..<dataStart], as: UTF8.self)
      let stored = readUInt32(bytes, at: dataEnd)
      guard PNGWriter.crc32(bytes[typeStart..<dataEnd]) == stored else {
        throw .badChecksum(chunk: type.filter { $0.isASCII && ($0.isLetter) })
      }
      let body = bytes[dataStart..<dataEnd]
      if size == nil {
        guard type == "IHDR" else { throw .missingHeader }
        guard length == 13 else { throw .badHeader }
        let width = Int(readUInt32(bytes, at: dataStart))
        let height = Int(readUInt32(bytes, at: dataStart + 4))
        guard (1...ThumbnailLimits.maxPNGSide).contains(width),
          (1...ThumbnailLimits.maxPNGSide).contains(height)
        else { throw .badHeader }
        size = (width, height)
      } else if type == "tEXt" || type == "iTXt" || type == "zTXt" {
        textChunks += 1
        guard textChunks <= ThumbnailLimits.maxTextChunks else { throw .tooManyTextChunks }
        if type == "zTXt" || (type == "iTXt" && isCompressed(body)) {
          compressed += 1
          offset = dataEnd + 4
          continue
        }
        if let (key, value) = type == "tEXt" ? latin1Text(body) : internationalText(body),
          text[key] == nil
        {
          text[key] = value
        }
      } else if type == "IEND" {
        ended = true
        break
      }
      offset = dataEnd + 4
    }
    guard let size else { throw .missingHeader }
    guard ended else { throw .truncated }  // cut at a chunk boundary: no IEND
    return PNGTextChunks(
      width: size.width, height: size.height, text: text, compressedTextChunks: compressed)
  }

  /// A tEXt chunk: keyword (1…79 Latin-1 bytes), NUL, Latin-1 text. Nil when malformed.
  private static func latin1Text(_ body: ArraySlice<UInt8>) -> (String, String)? {
    guard let nul = body.firstIndex(of: 0), let key = keyword(body[body.startIndex..<nul])
    else { return nil }
    let value = body[(nul + 1)...]
    guard value.count <= ThumbnailLimits.maxTextBytes else { return nil }
    // Latin-1 is the first 256 code points of Unicode.
    return (key, String(String.UnicodeScalarView(value.map { Unicode.Scalar($0) })))
  }

  /// An iTXt chunk: keyword, NUL, compression flag, method, language, NUL, translated
  /// keyword, NUL, UTF-8 text. Compressed ones are skipped (nil), as are malformed ones.
  private static func internationalText(_ body: ArraySlice<UInt8>) -> (String, String)? {
    guard let nul = body.firstIndex(of: 0), let key = keyword(body[body.startIndex..<nul])
    else { return nil }
    var rest = body[(nul + 1)...]
    guard rest.count >= 2, rest[rest.startIndex] == 0 else { return nil }  // not compressed
    rest = rest.dropFirst(2)
    guard let languageEnd = rest.firstIndex(of: 0) else { return nil }
    rest = rest[(languageEnd + 1)...]
    guard let translatedEnd = rest.firstIndex(of: 0) else { return nil }
    let value = rest[(translatedEnd + 1)...]
    guard value.count <= ThumbnailLimits.maxTextBytes,
      let text = String(validating: value, as: UTF8.self)
    else { return nil }
    return (key, text)
  }

  /// Whether an iTXt chunk's compression flag is set.
  private static func isCompressed(_ body: ArraySlice<UInt8>) -> Bool {
    guard let nul = body.firstIndex(of: 0), nul + 1 < body.endIndex else { return false }
    return body[nul + 1] != 0
  }

  /// A keyword as PNG defines it: 1…79 printable Latin-1 bytes.
  static func keyword(_ bytes: ArraySlice<UInt8>) -> String? {
    guard (1...ThumbnailLimits.maxKeywordBytes).contains(bytes.count),
      bytes.allSatisfy({ (32...126).contains($0) || (161...255).contains($0) })
    else { return nil }
    return String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
  }

  private static func readUInt32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
    bytes[offset..<offset + 4].reduce(0) { $0 << 8 | UInt32($1) }
  }
}
