/// A `--trusted-proxy` value: one address (`10.0.0.7`, `::1`) or a CIDR block
/// (`10.0.0.0/8`, `fd00::/8`). Bits past the prefix must be zero: `10.0.0.1/8` is refused,
/// since an operator who wrote it may have meant either the address or the block.
public struct IPAddressRange: Hashable, Sendable, CustomStringConvertible {
  public let network: IPAddress
  public let prefixLength: Int

  public init(parsing text: String) throws(LinkSettingError) {
    let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
    guard let address = IPAddress(parts[0]) else {
      throw LinkSettingError(
        "\(Self.quoted(text)) is not an IP address or CIDR block (10.0.0.0/8, ::1, fd00::/8)")
    }
    let bits = address.bytes.count * 8
    var length = bits
    if parts.count == 2 {
      let digits = parts[1]
      guard (1...3).contains(digits.utf8.count),
        digits.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
        digits.utf8.count == 1 || digits.first != "0", let value = Int(digits), value <= bits
      else {
        throw LinkSettingError(
          "\(Self.quoted(text)): the prefix length must be a whole number from 0 to \(bits)")
      }
      length = value
    }
    let masked = Self.mask(address.bytes, to: length)
    guard masked == address.bytes else {
      throw LinkSettingError(
        "\(Self.quoted(text)) has bits set past its /\(length) prefix; the block is "
          + "\(IPAddress(bytes: masked))/\(length)")
    }
    network = address
    prefixLength = length
  }

  /// Whether `address` is in the block; an IPv4-mapped IPv6 address counts as its IPv4 one.
  public func contains(_ address: IPAddress) -> Bool {
    let address = address.unmapped
    guard address.bytes.count == network.bytes.count else { return false }
    return Self.mask(address.bytes, to: prefixLength) == network.bytes
  }

  public var description: String { "\(network)/\(prefixLength)" }

  private static func mask(_ bytes: [UInt8], to length: Int) -> [UInt8] {
    bytes.enumerated().map { index, byte in
      let kept = min(8, max(0, length - index * 8))
      return kept == 8 ? byte : byte & ~(0xFF >> kept)
    }
  }

  /// Text from the command line, shortened and with control characters shown escaped.
  private static func quoted(_ text: String) -> String {
    String(reflecting: String(text.prefix(80)))
  }
}
