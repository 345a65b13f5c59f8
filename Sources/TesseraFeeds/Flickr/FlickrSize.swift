import TesseraUtilities

/// Flickr's size suffixes. A photo's image exists at each size; the suffix before the file
/// extension picks it (`53712345678_0a1b2c3d4e_z.jpg`; no suffix is the 500 px size).
///
/// Lookups are over a fixed ten-entry ladder: O(1).
public enum FlickrSize: String, CaseIterable, Sendable, Comparable {
  /// 75×75, cropped square.
  case square75 = "s"
  /// 150×150, cropped square.
  case square150 = "q"
  /// 100 px on the longest edge.
  case thumbnail100 = "t"
  /// 240 px on the longest edge (the size the public feed links).
  case small240 = "m"
  case small320 = "n"
  case small400 = "w"
  /// 500 px, written without a suffix.
  case medium500 = ""
  case medium640 = "z"
  case medium800 = "c"
  /// 1024 px on the longest edge: the largest size the feed's secret opens.
  case large1024 = "b"

  /// Length in pixels of the longest edge (or of the side, for the squares).
  public var longestEdge: Int {
    switch self {
    case .square75: 75
    case .square150: 150
    case .thumbnail100: 100
    case .small240: 240
    case .small320: 320
    case .small400: 400
    case .medium500: 500
    case .medium640: 640
    case .medium800: 800
    case .large1024: 1024
    }
  }

  /// Whether Flickr crops this size to a centred square.
  public var isSquare: Bool { self == .square75 || self == .square150 }

  public static func < (lhs: FlickrSize, rhs: FlickrSize) -> Bool {
    lhs.longestEdge < rhs.longestEdge
  }

  /// Pixel size of this variant for an image of aspect `aspect` (width / height). The aspect
  /// is clamped into `FeedLimits.aspects` first (NaN counts as square), so any Double gives a
  /// size of at least 1×1 within the longest edge.
  public func pixelSize(aspect: Double) -> PixelSize {
    if isSquare { return PixelSize(width: longestEdge, height: longestEdge) }
    let aspect = aspect.clamped(to: FeedLimits.aspects, nan: 1)
    let edge = Double(longestEdge)
    let sides = 1...longestEdge
    return aspect >= 1
      ? PixelSize(width: longestEdge, height: Int(clamping: edge / aspect, to: sides))
      : PixelSize(width: Int(clamping: edge * aspect, to: sides), height: longestEdge)
  }

  /// The smallest size whose pixels cover a `width`×`height` box (each side at least as long),
  /// so nothing is upscaled and nothing is wasted; `.large1024` when none does.
  ///
  /// - Parameters:
  ///   - aspect: the image's width / height when known (the feed's description carries it);
  ///     when nil the longest edge must cover the box's longest side.
  ///   - cropToSquare: the view shows a centred square crop, so Flickr's square sizes qualify.
  public static func covering(
    width: Int, height: Int, aspect: Double?, cropToSquare: Bool = false
  ) -> FlickrSize {
    let needed = max(width, height)
    if cropToSquare {
      if needed <= 75 { return .square75 }
      if needed <= 150 { return .square150 }
    }
    for size in allCases where !size.isSquare {
      if let aspect, aspect.isFinite, aspect > 0 {
        let pixels = size.pixelSize(aspect: aspect)
        if pixels.width >= width && pixels.height >= height { return size }
      } else if size.longestEdge >= needed {
        return size
      }
    }
    return .large1024
  }
}
