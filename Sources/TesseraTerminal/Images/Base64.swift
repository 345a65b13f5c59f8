/// Standard base64 (with padding) straight into a byte buffer: kitty's payload encoding.
/// O(n), no intermediate strings.
enum Base64 {
  private static let alphabet: [UInt8] = Array(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

  static func encode(_ input: ArraySlice<UInt8>, into out: inout [UInt8]) {
    out.reserveCapacity(out.count + (input.count + 2) / 3 * 4)
    var index = input.startIndex
    let end = input.endIndex
    alphabet.withUnsafeBufferPointer { table in
      while index + 3 <= end {
        let value =
          UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8 | UInt32(input[index + 2])
        out.append(table[Int(value >> 18 & 63)])
        out.append(table[Int(value >> 12 & 63)])
        out.append(table[Int(value >> 6 & 63)])
        out.append(table[Int(value & 63)])
        index += 3
      }
      let rest = end - index
      if rest > 0 {
        var value = UInt32(input[index]) << 16
        if rest == 2 { value |= UInt32(input[index + 1]) << 8 }
        out.append(table[Int(value >> 18 & 63)])
        out.append(table[Int(value >> 12 & 63)])
        out.append(rest == 2 ? table[Int(value >> 6 & 63)] : UInt8(ascii: "="))
        out.append(UInt8(ascii: "="))
      }
    }
  }
}
