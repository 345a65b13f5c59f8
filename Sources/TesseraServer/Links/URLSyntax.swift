/// The pieces of an absolute `http(s)` URL that may come from outside — a request's `Host`,
/// a proxy's forwarded host, port, scheme and prefix, an operator's `--public-url` — checked
/// against a strict grammar before any of them is written into a link. Whatever passes can
/// go into a URL, a JSON string and an HTML attribute as it is: no quotes, spaces, `<`, `&`,
/// `%`, `@`, `?` or `#` get through.
enum URLSyntax {
  static let maxHostLength = 253
  static let maxPrefixLength = 256

  /// `http` or `https` in any case, lower-cased; nil for anything else.
  static func scheme(_ text: some StringProtocol) -> String? {
    let lowered = text.lowercased()
    return lowered == "http" || lowered == "https" ? lowered : nil
  }

  /// `host[:port]` lower-cased, the port left out when it is the scheme's default; nil
  /// unless the host is a DNS name, a dotted IPv4 address or a bracketed IPv6 address and
  /// the port, if any, is 1…65535 in plain digits.
  static func authority(_ text: some StringProtocol, scheme: String) -> String? {
    let text = String(text)
    let host: Substring
    var port: Int?
    if text.hasPrefix("[") {
      guard let close = text.firstIndex(of: "]") else { return nil }
      host = text[...close]
      let rest = text[text.index(after: close)...]
      if !rest.isEmpty {
        guard rest.first == ":", let value = self.port(rest.dropFirst()) else { return nil }
        port = value
      }
    } else {
      let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
      host = parts[0]
      if parts.count == 2 {
        guard let value = self.port(parts[1]) else { return nil }
        port = value
      }
    }
    guard let name = self.host(host) else { return nil }
    return with(port: port, host: name, scheme: scheme)
  }

  /// `host` with `:port` unless the port is absent or the scheme's default.
  static func with(port: Int?, host: String, scheme: String) -> String {
    guard let port, port != (scheme == "https" ? 443 : 80) else { return host }
    return "\(host):\(port)"
  }

  /// A host alone, lower-cased: a DNS name (labels of letters, digits and inner hyphens), a
  /// dotted IPv4 address, or an IPv6 address in brackets. A name whose last label is all
  /// digits must be a valid IPv4 address (`999.1.1.1` is neither).
  static func host(_ text: some StringProtocol) -> String? {
    let text = String(text)
    guard !text.isEmpty, text.utf8.count <= maxHostLength else { return nil }
    if text.hasPrefix("[") {
      guard text.hasSuffix("]"), let address = IPAddress(text.dropFirst().dropLast()),
        !address.isIPv4
      else { return nil }
      return text.lowercased()
    }
    let labels = text.split(separator: ".", omittingEmptySubsequences: false)
    for label in labels {
      guard (1...63).contains(label.utf8.count), label.first != "-", label.last != "-",
        label.utf8.allSatisfy(isNameByte)
      else { return nil }
    }
    if let last = labels.last, last.utf8.allSatisfy(isDigit) {
      guard let address = IPAddress(text), address.isIPv4 else { return nil }
    }
    return text.lowercased()
  }

  /// 1…65535 written as 1 to 5 plain digits; nil otherwise.
  static func port(_ text: some StringProtocol) -> Int? {
    guard (1...5).contains(text.utf8.count), text.utf8.allSatisfy(isDigit), let value = Int(text),
      (1...65_535).contains(value)
    else { return nil }
    return value
  }

  /// A path prefix as `/a/b/` (always a slash at each end; `/` alone for none): segments of
  /// letters, digits, `-`, `.`, `_` and `~`, none of them `.` or `..`, no empty ones but a
  /// trailing slash. nil for anything else.
  static func pathPrefix(_ text: some StringProtocol) -> String? {
    let text = String(text)
    guard text.utf8.count <= maxPrefixLength else { return nil }
    if text.isEmpty || text == "/" { return "/" }
    guard text.hasPrefix("/") else { return nil }
    var segments = text.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
    if segments.last == "" { segments.removeLast() }
    for segment in segments {
      guard !segment.isEmpty, segment != ".", segment != "..",
        segment.utf8.allSatisfy({
          isNameByte($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "_")
            || $0 == UInt8(ascii: "~")
        })
      else { return nil }
    }
    return "/" + segments.joined(separator: "/") + "/"
  }

  private static func isDigit(_ byte: UInt8) -> Bool {
    byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
  }

  /// Letters, digits and the hyphen: what a DNS label is made of.
  private static func isNameByte(_ byte: UInt8) -> Bool {
    isDigit(byte) || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
      || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")) || byte == UInt8(ascii: "-")
  }
}
