/// Row heights with prefix sums: the storage behind `ListLayout`. A protocol so a benchmark
/// can put a different strategy (a plain offsets array) behind the same engine.
public protocol RowHeightIndex: AnyObject {
  /// Replaces everything with `heights`.
  func reset(heights: [Int32])
  /// The number of rows.
  var count: Int { get }
  /// The height of `row`.
  func height(at row: Int) -> Int
  /// Changes the height of `row`.
  func setHeight(_ height: Int, at row: Int)
  /// The sum of the heights of rows `0..<row`.
  func offset(of row: Int) -> Int
  /// The first row whose bottom is below `y` (rows of zero height are skipped), `count`
  /// when `y` is at or past the end.
  func row(containing y: Int) -> Int
  /// The sum of all heights.
  var totalHeight: Int { get }
  /// Bytes held, for the memory-per-row figure.
  var storageBytes: Int { get }
}

/// A Fenwick (binary indexed) tree of row heights.
///
/// reset O(n); setHeight, offset(of:) and row(containing:) O(log n); height(at:) O(1).
/// Memory: 8 bytes of tree plus 4 of height per row (12 bytes).
public final class FenwickRowHeights: RowHeightIndex {
  private var heights: [Int32] = []
  /// 1-based: tree[i] sums heights[(i − lowbit(i)) ..< i].
  private var tree: [Int64] = [0]
  private var topBit = 0

  /// An empty index.
  public init() {}

  /// Replaces every height and rebuilds the tree. O(n).
  public func reset(heights newHeights: [Int32]) {
    heights = newHeights
    let count = heights.count
    tree = [Int64](repeating: 0, count: count + 1)
    for index in stride(from: 1, through: count, by: 1) {
      tree[index] += Int64(heights[index - 1])
      let parent = index + (index & -index)
      if parent <= count { tree[parent] += tree[index] }
    }
    topBit = count == 0 ? 0 : 1 << (Int.bitWidth - 1 - count.leadingZeroBitCount)
  }

  /// The number of rows.
  public var count: Int { heights.count }

  /// The height of `row`. O(1).
  public func height(at row: Int) -> Int { Int(heights[row]) }

  /// Changes the height of `row` (negative is 0, beyond 32 bits is clamped). O(log n).
  public func setHeight(_ height: Int, at row: Int) {
    let clamped = Int32(clamping: max(0, height))
    let delta = Int64(clamped) - Int64(heights[row])
    guard delta != 0 else { return }
    heights[row] = clamped
    tree.withUnsafeMutableBufferPointer { tree in
      var index = row + 1
      while index < tree.count {
        tree[index] += delta
        index += index & -index
      }
    }
  }

  // Loops run over raw buffers: a class's stored arrays would otherwise pay a dynamic
  // exclusivity check on every element access.
  /// The sum of the heights of rows `0..<row` (clamped to the rows there are). O(log n).
  public func offset(of row: Int) -> Int {
    let start = min(max(row, 0), heights.count)
    return tree.withUnsafeBufferPointer { tree in
      var sum: Int64 = 0
      var index = start
      while index > 0 {
        sum += tree[index]
        index -= index & -index
      }
      return Int(sum)
    }
  }

  /// The first row whose bottom is below `y`, by descending the tree. O(log n).
  public func row(containing y: Int) -> Int {
    guard y >= 0 else { return 0 }
    let topBit = self.topBit
    return tree.withUnsafeBufferPointer { tree in
      var position = 0
      var remaining = Int64(y)
      var step = topBit
      while step > 0 {
        let next = position + step
        if next < tree.count && tree[next] <= remaining {
          position = next
          remaining -= tree[next]
        }
        step >>= 1
      }
      return position
    }
  }

  /// The sum of all heights. O(log n).
  public var totalHeight: Int { offset(of: heights.count) }

  /// Bytes held by the heights and the tree.
  public var storageBytes: Int {
    heights.capacity * MemoryLayout<Int32>.stride + tree.capacity * MemoryLayout<Int64>.stride
  }
}
