/// Set arithmetic on short lists of ascending, disjoint, non-empty integer ranges (the
/// prefetch window minus the screen is at most two ranges). O(a·b) on such lists.
enum RangeList {
  static func subtracting(_ ranges: [Range<Int>], _ removed: [Range<Int>]) -> [Range<Int>] {
    var pieces = ranges.filter { !$0.isEmpty }
    for cut in removed where !cut.isEmpty {
      pieces = pieces.flatMap { piece -> [Range<Int>] in
        guard piece.overlaps(cut) else { return [piece] }
        var kept: [Range<Int>] = []
        if piece.lowerBound < cut.lowerBound { kept.append(piece.lowerBound..<cut.lowerBound) }
        if cut.upperBound < piece.upperBound { kept.append(cut.upperBound..<piece.upperBound) }
        return kept
      }
    }
    return pieces
  }

  /// The union of two lists, merged into ascending disjoint ranges.
  static func union(_ a: [Range<Int>], _ b: [Range<Int>]) -> [Range<Int>] {
    var merged: [Range<Int>] = []
    for range in (a + b).filter({ !$0.isEmpty }).sorted(by: { $0.lowerBound < $1.lowerBound }) {
      if let last = merged.last, range.lowerBound <= last.upperBound {
        merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
      } else {
        merged.append(range)
      }
    }
    return merged
  }

  /// Groups ascending integers into ranges of consecutive values.
  static func grouping(_ values: [Int]) -> [Range<Int>] {
    var ranges: [Range<Int>] = []
    for value in values {
      if let last = ranges.last, last.upperBound == value {
        ranges[ranges.count - 1] = last.lowerBound..<(value + 1)
      } else {
        ranges.append(value..<(value + 1))
      }
    }
    return ranges
  }
}
