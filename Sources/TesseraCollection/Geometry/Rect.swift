/// A rectangle in whole units (the app maps one unit to one terminal cell).
///
/// Layouts work in integers so that integral inputs can only produce integral frames.
public struct Rect: Hashable, Sendable, CustomStringConvertible {
  /// The left edge.
  public var x: Int
  /// The top edge (y grows downwards).
  public var y: Int
  /// The width, in units.
  public var width: Int
  /// The height, in units.
  public var height: Int

  /// The rectangle at (`x`, `y`) of `width` × `height`.
  public init(x: Int, y: Int, width: Int, height: Int) {
    self.x = x
    self.y = y
    self.width = width
    self.height = height
  }

  /// The top edge.
  public var minY: Int { y }
  /// The first row below the rectangle.
  public var maxY: Int { y + height }
  /// The first column right of the rectangle.
  public var maxX: Int { x + width }

  /// Whether any part of the rectangle lies in the vertical band `band`.
  public func intersects(_ band: Range<Int>) -> Bool {
    height > 0 && y < band.upperBound && maxY > band.lowerBound
  }

  /// The same rectangle moved up by `dy` (content to viewport coordinates).
  public func offsetBy(dy: Int) -> Rect { Rect(x: x, y: y + dy, width: width, height: height) }

  /// `(x, y, width×height)`.
  public var description: String { "(\(x), \(y), \(width)×\(height))" }
}
