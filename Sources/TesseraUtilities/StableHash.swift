/// Non-cryptographic hashes that are the same in every process and on every machine (Swift's
/// `Hasher` is seeded per process, so it cannot name files, seed generators or tag images).
package enum StableHash {
  /// FNV-1a's 64-bit offset basis.
  package static let offsetBasis: UInt64 = 0xcbf2_9ce4_8422_2325
  private static let prime: UInt64 = 0x0000_0100_0000_01B3

  /// FNV-1a, 64 bits, over `bytes`, starting from `basis`. Hashing `b` from the hash of `a`
  /// gives the hash of `a` followed by `b`.
  ///
  /// - Complexity: O(n) in the number of bytes.
  package static func fnv1a(_ bytes: some Sequence<UInt8>, basis: UInt64 = offsetBasis) -> UInt64 {
    var hash = basis
    for byte in bytes {
      hash ^= UInt64(byte)
      hash = hash &* prime
    }
    return hash
  }

  /// FNV-1a, 64 bits, over `text`'s UTF-8.
  ///
  /// - Complexity: O(n) in the UTF-8 length.
  package static func of(_ text: String, basis: UInt64 = offsetBasis) -> UInt64 {
    fnv1a(text.utf8, basis: basis)
  }

  /// 128 bits of `text` as 32 lowercase hex digits: two FNV-1a runs from different bases,
  /// for names that must rarely collide (a caller that cannot afford a collision still
  /// stores and checks the full key).
  ///
  /// - Complexity: O(n) in the UTF-8 length.
  package static func wideHex(_ text: String) -> String {
    let utf8 = Array(text.utf8)
    return hex(fnv1a(utf8)) + hex(fnv1a(utf8, basis: 0x6c62_272e_07bb_0142))
  }

  /// `value` as 16 lowercase hex digits, zero-padded.
  ///
  /// - Complexity: O(1).
  package static func hex(_ value: UInt64) -> String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
  }

  /// A checksum of a body, eight bytes per step (a few GB/s), that catches flipped and
  /// missing bytes. The length is mixed in, so a truncated body never matches.
  ///
  /// - Complexity: O(n) in the number of bytes.
  package static func checksum(_ raw: UnsafeRawBufferPointer) -> UInt64 {
    var hash = offsetBasis ^ UInt64(raw.count)
    let words = raw.count / 8
    for index in 0..<words {
      let word = raw.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self)
      hash = (hash ^ word) &* prime
      hash ^= hash >> 29
    }
    for index in (words * 8)..<raw.count {
      hash = (hash ^ UInt64(raw[index])) &* prime
    }
    return hash
  }
}
