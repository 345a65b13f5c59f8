/// The rules a request's own header fields must keep (RFC 9110 §5): a name is a token, a
/// value has no control character but tab (so no CR or LF can start a field or a request of
/// its own), and there are not so many or so long that a server refuses them all.
///
/// - Complexity: O(total bytes of the fields).
enum HTTPHeaderFields {
  static let maxFields = 64
  /// Names and values together: most servers refuse header blocks past 8 KiB.
  static let maxBytes = 8 * 1024

  /// Fields the pipeline or the transport sets itself: a request that sets them would
  /// contradict the body, the connection or the cache validators.
  static let reserved: Set<String> = [
    "host", "content-length", "transfer-encoding", "connection", "upgrade", "te",
    "if-none-match", "if-modified-since",
  ]

  /// What is wrong with `fields`, in words; nil when they may be sent.
  static func problem(with fields: [String: String]) -> String? {
    guard fields.count <= maxFields else {
      return "\(fields.count) header fields (at most \(maxFields))"
    }
    var bytes = 0
    for (name, value) in fields.sorted(by: { $0.key < $1.key }) {
      bytes += name.utf8.count + value.utf8.count
      guard !name.isEmpty, name.utf8.allSatisfy(isTokenByte) else {
        return "the header name “\(printable(name))” is not an HTTP token"
      }
      guard !reserved.contains(name.lowercased()) else {
        return "the header “\(name)” is set by the pipeline itself"
      }
      guard value.utf8.allSatisfy({ $0 == 0x09 || ($0 >= 0x20 && $0 != 0x7F) }) else {
        return "the value of “\(name)” holds a control character"
      }
    }
    guard bytes <= maxBytes else { return "\(bytes) bytes of header fields (at most \(maxBytes))" }
    return nil
  }

  /// tchar: letters, digits and ``!#$%&'*+-.^_`|~``.
  private static func isTokenByte(_ byte: UInt8) -> Bool {
    switch byte {
    case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: true
    default: Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
    }
  }

  /// A name as an error message may show it: control characters escaped.
  private static func printable(_ text: String) -> String {
    String(
      text.unicodeScalars.prefix(64).map {
        $0.value < 0x20 || $0.value == 0x7F ? "?" : Character($0)
      })
  }
}
