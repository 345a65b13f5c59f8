/// A rectangle in whole units (the app maps one unit to one terminal cell).
///
/// Layouts work in integers so that integral inputs can only produce integral frames.
public struct Rect: Hashable, Sendable, CustomStringConvertible {
  public var x: Int
  public var y: Int
  public var width: Int
  public var height: Int

  public init(x: Int, y: Int, width: Int, height: Int) {
    self.x = x
    self.y = y
    self.width = width
    self.height = height
  }

  public var minY: Int { y }
  public var maxY: Int { y + height }
  public var maxX: Int { x + width }

  /// Whether any part of the rectangle lies in the vertical band `band`.
  public func intersects(_ band: Range<Int>) -> Bool {
    height > 0 && y < band.upperBound && maxY > band.lowerBound
  }

  /// The same rectangle moved up by `dy` (content to viewport coordinates).
  public func offsetBy(dy: Int) -> Rect { Rect(x: x, y: y + dy, width: width, height: height) }

  public var description: String { "(\(x), \(y), \(width)×\(height))" }
}
