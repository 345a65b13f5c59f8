import Foundation

/// Non-cryptographic hashes that are stable across runs and machines (Swift's `Hasher` is
/// seeded per process, so it cannot name files).
enum StableHash {
  /// FNV-1a, 64 bits, over `bytes`, starting from `basis`. O(n).
  static func fnv1a(
    _ bytes: some Sequence<UInt8>, basis: UInt64 = 0xcbf2_9ce4_8422_2325
  )
    -> UInt64
  {
    var hash = basis
    for byte in bytes {
      hash ^= UInt64(byte)
      hash = hash &* 0x0000_0100_0000_01B3
    }
    return hash
  }

  /// 128 bits as 32 hex digits: two FNV-1a runs from different bases. Collisions are
  /// harmless anyway (the disk cache stores and verifies the full key).
  static func fileName(for key: String) -> String {
    let utf8 = Array(key.utf8)
    let high = fnv1a(utf8)
    let low = fnv1a(utf8, basis: 0x6c62_272e_07bb_0142)
    return hex(high) + hex(low)
  }

  private static func hex(_ value: UInt64) -> String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
  }

  /// A checksum of a body, eight bytes per step (a few GB/s), that catches flipped and
  /// missing bytes. O(n).
  static func checksum(_ data: Data) -> UInt64 {
    data.withUnsafeBytes { raw -> UInt64 in
      var hash: UInt64 = 0xcbf2_9ce4_8422_2325 ^ UInt64(raw.count)
      let words = raw.count / 8
      for index in 0..<words {
        let word = raw.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self)
        hash = (hash ^ word) &* 0x0000_0100_0000_01B3
        hash ^= hash >> 29
      }
      for index in (words * 8)..<raw.count {
        hash = (hash ^ UInt64(raw[index])) &* 0x0000_0100_0000_01B3
      }
      return hash
    }
  }
}
