import Foundation

/// Reads a feed body as JSON, forgiving the quirks real Flickr answers carry.
///
/// - JSONP: without `nojsoncallback=1` Flickr wraps the object in `jsonFlickrFeed( … )`.
/// - `\'`: Flickr escapes apostrophes, which JSON does not allow; they are unescaped first.
///
/// Linear in the body's length.
enum JSONDocument {
  static func parse(_ data: Data) throws(FeedError) -> Any {
    var bytes = trimmed(Array(data))
    guard !bytes.isEmpty else { throw .notJSON(preview: "") }
    bytes = unwrappingJSONP(bytes)
    bytes = unescapingApostrophes(bytes)
    do {
      return try JSONSerialization.jsonObject(with: Data(bytes))
    } catch {
      throw .notJSON(preview: preview(of: data))
    }
  }

  /// The first characters of a body, printable, for an error message.
  static func preview(of data: Data) -> String {
    let text = String(decoding: data.prefix(48), as: UTF8.self)
    let flat = text.map { $0.isNewline || $0 == "\t" ? " " : $0 }
    return String(flat).trimmingCharacters(in: .whitespaces)
  }

  private static func isSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
  }

  private static func trimmed(_ bytes: [UInt8]) -> [UInt8] {
    var start = 0
    var end = bytes.count
    // A UTF-8 byte order mark is not JSON but some servers send it.
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }
    while start < end, isSpace(bytes[start]) { start += 1 }
    while end > start, isSpace(bytes[end - 1]) { end -= 1 }
    return Array(bytes[start..<end])
  }

  /// `callback( … )` or `callback( … );` → ` … `, when the callback is a JS identifier.
  private static func unwrappingJSONP(_ bytes: [UInt8]) -> [UInt8] {
    guard let first = bytes.first, isIdentifierStart(first),
      let open = bytes.firstIndex(of: UInt8(ascii: "(")),
      bytes[..<open].allSatisfy({ isIdentifierStart($0) || ($0 >= 0x30 && $0 <= 0x39) })
    else { return bytes }
    var end = bytes.count
    if bytes[end - 1] == UInt8(ascii: ";") { end -= 1 }
    guard end > open + 1, bytes[end - 1] == UInt8(ascii: ")") else { return bytes }
    return trimmed(Array(bytes[(open + 1)..<(end - 1)]))
  }

  private static func isIdentifierStart(_ byte: UInt8) -> Bool {
    (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x5F
      || byte == 0x24
  }

  /// Drops the backslash of each `\'`; other escapes (including `\\`) pass unchanged.
  private static func unescapingApostrophes(_ bytes: [UInt8]) -> [UInt8] {
    let backslash = UInt8(ascii: "\\")
    let apostrophe = UInt8(ascii: "'")
    guard bytes.contains(apostrophe) else { return bytes }
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count)
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      if byte == backslash, index + 1 < bytes.count {
        let next = bytes[index + 1]
        if next != apostrophe { out.append(byte) }
        out.append(next)
        index += 2
      } else {
        out.append(byte)
        index += 1
      }
    }
    return out
  }
}
