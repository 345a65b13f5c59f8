/// Reproducible randomness: every generated image, feed entry and injected fault derives from
/// a seed and a name through these, so two runs with the same seed serve the same bytes.
///
/// SplitMix64: O(1) per draw, 8 bytes of state.
struct SeededGenerator: RandomNumberGenerator {
  private var state: UInt64

  init(seed: UInt64) {
    state = seed
  }

  /// A generator for one named thing (an image, a request) under a seed.
  init(seed: UInt64, _ parts: UInt64...) {
    var mixed = seed
    for part in parts { mixed = Self.mix(mixed ^ Self.mix(part &+ 0x9E37_79B9_7F4A_7C15)) }
    state = mixed
  }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    return Self.mix(state)
  }

  /// A uniform Double in [0, 1).
  mutating func unit() -> Double {
    Double(next() >> 11) * 0x1p-53
  }

  /// An element of a non-empty array.
  mutating func pick<T>(_ values: [T]) -> T {
    values[Int(next() % UInt64(values.count))]
  }

  static func mix(_ value: UInt64) -> UInt64 {
    var z = value
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// FNV-1a, 64 bits: a stable hash of bytes (Swift's `Hasher` is seeded per process).
enum StableHash {
  static func of<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> UInt64 {
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    for byte in bytes {
      hash ^= UInt64(byte)
      hash &*= 0x0000_0100_0000_01B3
    }
    return hash
  }

  static func of(_ text: String) -> UInt64 { of(text.utf8) }

  static func hex(_ value: UInt64) -> String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
  }
}
