extension Array where Element == Double {
  /// The value at fraction `p` (0…1, clamped; NaN is 0) of an ascending array, by the nearest
  /// rank; nil when the array is empty.
  ///
  /// - Complexity: O(1); the caller sorts once.
  package func percentileOfSorted(_ p: Double) -> Double? {
    guard !isEmpty else { return nil }
    let position = p.clamped(to: 0...1) * Double(count - 1)
    return self[Int(clamping: position, to: 0...(count - 1))]
  }
}
