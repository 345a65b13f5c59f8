/// A rectangle of cells; `x`, `y` may be negative (a tile partly scrolled off the top).
public struct CellRect: Hashable, Sendable, CustomStringConvertible {
  public var x: Int
  public var y: Int
  public var width: Int
  public var height: Int

  public init(x: Int, y: Int, width: Int, height: Int) {
    self.x = x
    self.y = y
    self.width = max(0, width)
    self.height = max(0, height)
  }

  /// The column after the last; saturates instead of overflowing for absurd rectangles.
  public var maxX: Int { Self.saturatingSum(x, width) }
  /// The row after the last; saturates instead of overflowing for absurd rectangles.
  public var maxY: Int { Self.saturatingSum(y, height) }
  public var isEmpty: Bool { width == 0 || height == 0 }

  /// The overlap of two rectangles (empty, at `self`'s origin, when they do not meet).
  public func intersection(_ other: CellRect) -> CellRect {
    let left = max(x, other.x)
    let top = max(y, other.y)
    let right = min(maxX, other.maxX)
    let bottom = min(maxY, other.maxY)
    guard right > left, bottom > top else { return CellRect(x: x, y: y, width: 0, height: 0) }
    return CellRect(x: left, y: top, width: right - left, height: bottom - top)
  }

  public func contains(x px: Int, y py: Int) -> Bool {
    px >= x && px < maxX && py >= y && py < maxY
  }

  private static func saturatingSum(_ a: Int, _ b: Int) -> Int {
    let (sum, overflow) = a.addingReportingOverflow(b)
    return overflow ? Int.max : sum
  }

  public var description: String { "(\(x),\(y) \(width)x\(height))" }
}
