/// An IPv4 or IPv6 address as its 4 or 16 bytes, read from text strictly: what an operator's
/// `--trusted-proxy` names and what a proxy writes in `Forwarded: for=`, both from outside.
///
/// IPv4 is four decimal parts without leading zeros (`010` could be read as octal elsewhere,
/// so it is refused rather than guessed); IPv6 is RFC 4291 text, `::` and a dotted IPv4 tail
/// included, without a zone (`%eth0` names an interface, never a peer seen from here).
public struct IPAddress: Hashable, Sendable, CustomStringConvertible {
  /// 4 bytes for IPv4, 16 for IPv6, network order.
  public let bytes: [UInt8]

  /// nil unless `text` is a whole IPv4 or IPv6 address and nothing else.
  public init?(_ text: some StringProtocol) {
    let utf8 = Array(text.utf8)
    guard !utf8.isEmpty, utf8.count <= 45 else { return nil }
    if let v4 = Self.parseIPv4(utf8[...]) {
      bytes = v4
    } else if let v6 = Self.parseIPv6(utf8) {
      bytes = v6
    } else {
      return nil
    }
  }

  init(bytes: [UInt8]) {
    self.bytes = bytes
  }

  public var isIPv4: Bool { bytes.count == 4 }

  /// An IPv4-mapped IPv6 address (`::ffff:a.b.c.d`) as the IPv4 address it carries: a
  /// dual-stack listener reports IPv4 peers that way, and a range written as IPv4 must still
  /// match them.
  public var unmapped: IPAddress {
    guard bytes.count == 16, bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF,
      bytes[11] == 0xFF
    else { return self }
    return IPAddress(bytes: Array(bytes[12...]))
  }

  public var description: String {
    if isIPv4 { return bytes.map(String.init).joined(separator: ".") }
    return stride(from: 0, to: 16, by: 2).map {
      String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16)
    }.joined(separator: ":")
  }

  private static func parseIPv4(_ text: ArraySlice<UInt8>) -> [UInt8]? {
    let parts = text.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
    guard parts.count == 4 else { return nil }
    var result: [UInt8] = []
    for part in parts {
      guard (1...3).contains(part.count), part.allSatisfy(isDigit),
        part.count == 1 || part.first != UInt8(ascii: "0")
      else { return nil }
      let value = part.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
      guard value <= 255 else { return nil }
      result.append(UInt8(value))
    }
    return result
  }

  private static func parseIPv6(_ text: [UInt8]) -> [UInt8]? {
    let colon = UInt8(ascii: ":")
    // At most one `::`, which stands for one or more zero groups.
    var halves: [ArraySlice<UInt8>] = []
    var start = 0
    var index = 0
    while index + 1 < text.count {
      if text[index] == colon && text[index + 1] == colon {
        halves.append(text[start..<index])
        start = index + 2
        index += 2
        guard halves.count == 1 else { return nil }
      } else {
        index += 1
      }
    }
    halves.append(text[start...])
    guard let head = groups(halves[0], allowsIPv4Tail: halves.count == 1) else { return nil }
    if halves.count == 1 {
      return head.count == 16 ? head : nil
    }
    guard let tail = groups(halves[1], allowsIPv4Tail: true), head.count + tail.count <= 14
    else { return nil }
    return head + [UInt8](repeating: 0, count: 16 - head.count - tail.count) + tail
  }

  /// The bytes of colon-separated hex groups (empty text is no groups); the last group may be
  /// a dotted IPv4 address.
  private static func groups(_ text: ArraySlice<UInt8>, allowsIPv4Tail: Bool) -> [UInt8]? {
    guard !text.isEmpty else { return [] }
    let parts = text.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false)
    var result: [UInt8] = []
    for (position, part) in parts.enumerated() {
      if position == parts.count - 1, allowsIPv4Tail, part.contains(UInt8(ascii: ".")) {
        guard let v4 = parseIPv4(part) else { return nil }
        result += v4
        continue
      }
      // `UInt16(_:radix:)` reads ASCII hex digits only, after an optional sign refused here.
      guard (1...4).contains(part.count), part.first != UInt8(ascii: "+"),
        part.first != UInt8(ascii: "-"),
        let value = UInt16(String(decoding: part, as: UTF8.self), radix: 16)
      else { return nil }
      result += [UInt8(value >> 8), UInt8(value & 0xFF)]
    }
    return result.count <= 16 ? result : nil
  }

  private static func isDigit(_ byte: UInt8) -> Bool {
    byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
  }
}
