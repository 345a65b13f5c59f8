/// Set arithmetic on short lists of ascending, disjoint integer ranges (the prefetch window
/// minus the screen is at most two ranges). Linear merges: O(a + b), one allocation.
enum RangeList {
  /// `ranges` minus `removed`. Empty ranges in either list are ignored.
  static func subtracting(_ ranges: [Range<Int>], _ removed: [Range<Int>]) -> [Range<Int>] {
    var result: [Range<Int>] = []
    var cut = 0
    for range in ranges where !range.isEmpty {
      var low = range.lowerBound
      while cut < removed.count && (removed[cut].isEmpty || removed[cut].upperBound <= low) {
        cut += 1
      }
      var next = cut
      while next < removed.count && removed[next].lowerBound < range.upperBound {
        let piece = removed[next]
        if !piece.isEmpty {
          if piece.lowerBound > low { result.append(low..<piece.lowerBound) }
          low = max(low, piece.upperBound)
        }
        next += 1
      }
      if low < range.upperBound { result.append(low..<range.upperBound) }
    }
    return result
  }

  /// The union of two lists, as ascending disjoint ranges.
  static func union(_ a: [Range<Int>], _ b: [Range<Int>]) -> [Range<Int>] {
    var merged: [Range<Int>] = []
    var i = 0
    var j = 0
    while i < a.count || j < b.count {
      let range: Range<Int>
      if j >= b.count || (i < a.count && a[i].lowerBound <= b[j].lowerBound) {
        range = a[i]
        i += 1
      } else {
        range = b[j]
        j += 1
      }
      guard !range.isEmpty else { continue }
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
