/// A width and a height in pixels: an image's size, a decode target, a terminal cell.
///
/// The one pixel size every Tessera module speaks (`TesseraImages`, `TesseraFeeds`,
/// `TesseraPhotoLibrary`, `TesseraTerminal` re-export it), so a size from a feed, a decoded
/// image or a terminal reply passes between them without conversion. It holds any two
/// integers; modules that take sizes from outside check them against their own limits (e.g.
/// `PixelSize(validatingWidth:height:)` against `FeedLimits`).
public struct PixelSize: Hashable, Sendable, CustomStringConvertible {
  /// Pixels across.
  public var width: Int
  /// Pixels down.
  public var height: Int

  /// A size of `width` × `height` pixels, as given.
  public init(width: Int, height: Int) {
    self.width = width
    self.height = height
  }

  /// Width ÷ height (greater than 1 for a landscape image); nil when either side is zero or
  /// negative, so no caller divides by zero.
  public var aspectRatio: Double? {
    guard width > 0, height > 0 else { return nil }
    return Double(width) / Double(height)
  }

  /// "WIDTHxHEIGHT", e.g. "640x480".
  public var description: String { "\(width)x\(height)" }
}
