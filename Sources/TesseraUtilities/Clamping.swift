/// Conversions for numbers that arrive from outside (network, files, terminal, command line).
///
/// `Int(someDouble)` traps on NaN, infinities and anything beyond `Int`'s range, so a forged
/// width, aspect or duration would kill the process. Every such conversion goes through these
/// instead: the value is clamped into a range that the arithmetic after it can afford.
extension Int {
  /// The integer nearest to `value`, clamped into `range`. NaN becomes `range.lowerBound`;
  /// the infinities become the bounds.
  ///
  /// - Complexity: O(1).
  package init(clamping value: Double, to range: ClosedRange<Int>) {
    guard !value.isNaN else {
      self = range.lowerBound
      return
    }
    let rounded = value.rounded()
    if rounded <= Double(range.lowerBound) {
      self = range.lowerBound
    } else if rounded >= Double(range.upperBound) {
      self = range.upperBound
    } else {
      self = Int(rounded)
    }
  }

  /// `self` clamped into `range`.
  ///
  /// - Complexity: O(1).
  package func clamped(to range: ClosedRange<Int>) -> Int {
    Swift.min(Swift.max(self, range.lowerBound), range.upperBound)
  }
}

extension Double {
  /// `self` clamped into `range`; NaN becomes `fallback` (the lower bound unless given).
  ///
  /// - Complexity: O(1).
  package func clamped(to range: ClosedRange<Double>, nan fallback: Double? = nil) -> Double {
    guard !isNaN else { return fallback ?? range.lowerBound }
    return Swift.min(Swift.max(self, range.lowerBound), range.upperBound)
  }
}
