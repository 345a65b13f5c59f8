/// A rectangle in whole units: cells for the terminal, the collection engine's layout units
/// (the app maps one to one cell). Integers, so integral inputs can only produce integral
/// frames. `x` and `y` may be negative (a tile partly scrolled off the top); `width` and
/// `height` are never negative, and the far edges saturate instead of overflowing for absurd
/// rectangles, so a hostile size cannot trap.
public struct Rect: Hashable, Sendable, CustomStringConvertible {
  /// The left edge.
  public var x: Int
  /// The top edge (y grows downwards).
  public var y: Int
  /// The width, in units.
  public var width: Int
  /// The height, in units.
  public var height: Int

  /// The rectangle at (`x`, `y`) of `width` × `height`; a negative size is taken as 0.
  public init(x: Int, y: Int, width: Int, height: Int) {
    self.x = x
    self.y = y
    self.width = max(0, width)
    self.height = max(0, height)
  }

  /// The top edge.
  public var minY: Int { y }
  /// The first column right of the rectangle.
  public var maxX: Int { Self.saturatingSum(x, width) }
  /// The first row below the rectangle.
  public var maxY: Int { Self.saturatingSum(y, height) }
  /// Whether it covers nothing.
  public var isEmpty: Bool { width == 0 || height == 0 }

  /// Whether any part of the rectangle lies in the vertical band `band`.
  public func intersects(_ band: Range<Int>) -> Bool {
    height > 0 && y < band.upperBound && maxY > band.lowerBound
  }

  /// The overlap of two rectangles (empty, at `self`'s origin, when they do not meet).
  public func intersection(_ other: Rect) -> Rect {
    let left = max(x, other.x)
    let top = max(y, other.y)
    let right = min(maxX, other.maxX)
    let bottom = min(maxY, other.maxY)
    guard right > left, bottom > top else { return Rect(x: x, y: y, width: 0, height: 0) }
    return Rect(x: left, y: top, width: right - left, height: bottom - top)
  }

  /// What is left of the rectangle without `other`: up to four rectangles (the band above
  /// it, the band below, and left and right of it between them), none empty; `[self]` when
  /// they do not meet, `[]` when `other` covers it. O(1).
  public func subtracting(_ other: Rect) -> [Rect] {
    guard !isEmpty else { return [] }
    let overlap = intersection(other)
    guard !overlap.isEmpty else { return [self] }
    let parts = [
      Rect(x: x, y: y, width: width, height: overlap.y - y),
      Rect(x: x, y: overlap.maxY, width: width, height: maxY - overlap.maxY),
      Rect(x: x, y: overlap.y, width: overlap.x - x, height: overlap.height),
      Rect(x: overlap.maxX, y: overlap.y, width: maxX - overlap.maxX, height: overlap.height),
    ]
    return parts.filter { !$0.isEmpty }
  }

  /// Whether the unit at (`px`, `py`) is inside.
  public func contains(x px: Int, y py: Int) -> Bool {
    px >= x && px < maxX && py >= y && py < maxY
  }

  /// The same rectangle moved down by `dy` (content to viewport coordinates with a negative
  /// offset).
  public func offsetBy(dy: Int) -> Rect {
    Rect(x: x, y: Self.saturatingSum(y, dy), width: width, height: height)
  }

  private static func saturatingSum(_ a: Int, _ b: Int) -> Int {
    let (sum, overflow) = a.addingReportingOverflow(b)
    return overflow ? (b > 0 ? Int.max : Int.min) : sum
  }

  /// `(x, y, width×height)`.
  public var description: String { "(\(x), \(y), \(width)×\(height))" }
}
