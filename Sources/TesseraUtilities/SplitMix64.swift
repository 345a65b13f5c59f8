import Foundation

/// SplitMix64: a small, seeded, reproducible random number generator. Every generated image,
/// feed entry, injected fault, simulated transfer and property test derives its numbers from a
/// seed through this, so two runs with the same seed give the same results.
///
/// - Complexity: O(1) per draw; 8 bytes of state.
package struct SplitMix64: RandomNumberGenerator, Sendable {
  private static let golden: UInt64 = 0x9E37_79B9_7F4A_7C15
  private var state: UInt64

  /// A generator whose first draw is the SplitMix64 output after `seed`.
  package init(seed: UInt64) { state = seed }

  /// A generator for one named thing (an image, a request, a URL's n-th transfer) under a
  /// seed: each part is mixed in, so nearby names give unrelated streams.
  package init(seed: UInt64, _ parts: UInt64...) {
    var mixed = seed
    for part in parts { mixed = Self.mix(mixed ^ Self.mix(part &+ Self.golden)) }
    state = mixed
  }

  package mutating func next() -> UInt64 {
    state &+= Self.golden
    return Self.mix(state)
  }

  /// A uniform Double in [0, 1), from the top 53 bits of a draw.
  package mutating func unit() -> Double { Double(next() >> 11) * 0x1p-53 }

  /// A uniform Double in `range`.
  package mutating func uniform(_ range: ClosedRange<Double>) -> Double {
    range.lowerBound + unit() * (range.upperBound - range.lowerBound)
  }

  /// A standard normal draw (Box–Muller).
  package mutating func normal() -> Double {
    let u1 = max(unit(), 0x1p-53)
    let u2 = unit()
    return (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
  }

  /// An element of a non-empty array.
  ///
  /// - Complexity: O(1).
  package mutating func pick<T>(_ values: [T]) -> T {
    values[Int(next() % UInt64(values.count))]
  }

  /// SplitMix64's finaliser: a bijection on 64 bits that scatters nearby inputs, usable alone
  /// as a stateless hash of an integer.
  package static func mix(_ value: UInt64) -> UInt64 {
    var z = value
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
