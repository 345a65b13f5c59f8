/// An append-only byte buffer for escape sequences: ASCII, decimal numbers and UTF-8 text
/// without going through `String` formatting. Appends are amortised O(1) per byte.
struct ByteWriter: Sendable {
  private(set) var bytes: [UInt8] = []

  init(capacity: Int = 0) { bytes.reserveCapacity(capacity) }

  var count: Int { bytes.count }

  mutating func append(_ byte: UInt8) { bytes.append(byte) }

  mutating func append(_ other: [UInt8]) { bytes.append(contentsOf: other) }

  mutating func append(_ other: ArraySlice<UInt8>) { bytes.append(contentsOf: other) }

  mutating func append(_ text: String) {
    var text = text
    text.withUTF8 { bytes.append(contentsOf: $0) }
  }

  /// `ESC` followed by `text`.
  mutating func escape(_ text: String) {
    bytes.append(0x1B)
    append(text)
  }

  /// A non-negative decimal without allocating.
  mutating func decimal(_ value: Int) {
    guard value > 0 else {
      bytes.append(UInt8(ascii: "0"))
      return
    }
    var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
      (0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    var count = 0
    var rest = value
    withUnsafeMutableBytes(of: &digits) { buffer in
      while rest > 0, count < 10 {
        buffer[count] = UInt8(ascii: "0") + UInt8(rest % 10)
        rest /= 10
        count += 1
      }
      for index in stride(from: count - 1, through: 0, by: -1) { bytes.append(buffer[index]) }
    }
  }
}
