import Foundation

/// SplitMix64: the simulation's only source of randomness, so a seed fixes every number.
/// O(1) per draw, 8 bytes of state.
struct SplitMix64: RandomNumberGenerator {
  private var state: UInt64

  init(seed: UInt64) { state = seed }

  /// A generator for one named thing (a URL's n-th transfer, the script) under a seed.
  init(seed: UInt64, _ parts: UInt64...) {
    var mixed = seed
    for part in parts { mixed = Self.mix(mixed ^ Self.mix(part &+ 0x9E37_79B9_7F4A_7C15)) }
    state = mixed
  }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    return Self.mix(state)
  }

  /// Uniform in [0, 1).
  mutating func unit() -> Double { Double(next() >> 11) * 0x1p-53 }

  /// Uniform in `range`.
  mutating func uniform(_ range: ClosedRange<Double>) -> Double {
    range.lowerBound + unit() * (range.upperBound - range.lowerBound)
  }

  /// A standard normal draw (Box–Muller).
  mutating func normal() -> Double {
    let u1 = max(unit(), 0x1p-53)
    let u2 = unit()
    return (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
  }

  static func mix(_ value: UInt64) -> UInt64 {
    var z = value
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// FNV-1a over UTF-8: a hash that is the same in every process (Swift's `Hasher` is not).
enum StableHash {
  static func of(_ text: String) -> UInt64 {
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    for byte in text.utf8 {
      hash ^= UInt64(byte)
      hash &*= 0x0000_0100_0000_01B3
    }
    return hash
  }
}
