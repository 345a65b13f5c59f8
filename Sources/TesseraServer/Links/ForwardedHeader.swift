/// RFC 7239's `Forwarded` header read into its elements, one per proxy, each a map from
/// lower-cased parameter names (`for`, `by`, `host`, `proto`) to values with quotes removed.
///
/// The whole header is refused (nil) on any syntax error, a repeated parameter in one element,
/// a non-ASCII or control byte, or past `maxBytes` and `maxElements`: a header that is not
/// what a proxy writes is not believed in part.
enum ForwardedHeader {
  typealias Element = [String: String]

  static let maxBytes = 8_192
  static let maxElements = 64

  static func parse(_ text: String) -> [Element]? {
    let bytes = Array(text.utf8)
    guard bytes.count <= maxBytes else { return nil }
    var scanner = Scanner(bytes: bytes)
    var elements: [Element] = []
    var current: Element = [:]
    while true {
      scanner.skipSpaces()
      guard let byte = scanner.peek() else { break }
      if byte == UInt8(ascii: ",") || byte == UInt8(ascii: ";") {
        scanner.index += 1
        if byte == UInt8(ascii: ","), !current.isEmpty {
          elements.append(current)
          current = [:]
        }
        continue
      }
      guard let name = scanner.token(), scanner.take(UInt8(ascii: "=")),
        let value = scanner.peek() == UInt8(ascii: "\"") ? scanner.quoted() : scanner.token()
      else { return nil }
      let key = name.lowercased()
      guard current[key] == nil else { return nil }
      current[key] = value
      scanner.skipSpaces()
      guard let next = scanner.peek() else { break }
      guard next == UInt8(ascii: ",") || next == UInt8(ascii: ";") else { return nil }
      guard elements.count < maxElements else { return nil }
    }
    if !current.isEmpty { elements.append(current) }
    return elements.count <= maxElements ? elements : nil
  }

  /// The address a `for=` value names (`192.0.2.1`, `"192.0.2.1:80"`, `"[2001:db8::1]:4711"`);
  /// nil for `unknown`, obfuscated names (`_hidden`) and anything else.
  static func address(_ node: String) -> IPAddress? {
    if node.hasPrefix("[") {
      guard let close = node.firstIndex(of: "]") else { return nil }
      return IPAddress(node[node.index(after: node.startIndex)..<close])
    }
    return IPAddress(node.split(separator: ":", maxSplits: 1).first ?? "")
  }

  private struct Scanner {
    let bytes: [UInt8]
    var index = 0

    func peek() -> UInt8? { index < bytes.count ? bytes[index] : nil }

    mutating func take(_ byte: UInt8) -> Bool {
      guard peek() == byte else { return false }
      index += 1
      return true
    }

    mutating func skipSpaces() {
      while let byte = peek(), byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") {
        index += 1
      }
    }

    /// RFC 9110's token: one or more of its visible characters.
    mutating func token() -> String? {
      let start = index
      while let byte = peek(), Self.isTokenByte(byte) { index += 1 }
      guard index > start else { return nil }
      return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    /// A quoted string, backslash escapes undone; visible ASCII and spaces only.
    mutating func quoted() -> String? {
      guard take(UInt8(ascii: "\"")) else { return nil }
      var value: [UInt8] = []
      while let byte = peek() {
        index += 1
        switch byte {
        case UInt8(ascii: "\""):
          return String(decoding: value, as: UTF8.self)
        case UInt8(ascii: "\\"):
          guard let escaped = peek(), Self.isTextByte(escaped) else { return nil }
          index += 1
          value.append(escaped)
        case _ where Self.isTextByte(byte):
          value.append(byte)
        default:
          return nil
        }
      }
      return nil
    }

    static func isTextByte(_ byte: UInt8) -> Bool {
      byte == UInt8(ascii: "\t") || (0x20...0x7E).contains(byte)
    }

    static func isTokenByte(_ byte: UInt8) -> Bool {
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"),
        UInt8(ascii: "A")...UInt8(ascii: "Z"):
        true
      default:
        "!#$%&'*+-.^_`|~".utf8.contains(byte)
      }
    }
  }
}
