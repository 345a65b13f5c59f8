import TesseraGeometry

/// Sizes that come from outside (a feed's `<img width height>`, a file's header) are built with
/// `init?(validatingWidth:height:)`, which refuses anything beyond `FeedLimits`; a `Photo`'s
/// aspect ratio is nil for any size outside them, however the size was made.
extension PixelSize {
  /// `width`×`height` when both sides are within `FeedLimits.imageSides` and the shape within
  /// `FeedLimits.aspects`; nil otherwise (the size is then unknown).
  public init?(validatingWidth width: Int, height: Int) {
    self.init(width: width, height: height)
    guard isWithinFeedLimits else { return nil }
  }

  /// Whether both sides and the aspect ratio are within `FeedLimits`. Integer arithmetic only:
  /// the sides are checked before they are multiplied, so nothing overflows.
  public var isWithinFeedLimits: Bool {
    guard FeedLimits.imageSides.contains(width), FeedLimits.imageSides.contains(height) else {
      return false
    }
    return width <= height * FeedLimits.maxAspect && height <= width * FeedLimits.maxAspect
  }

  /// Width / height for a size within `FeedLimits`; nil for any other (zero, negative, huge or
  /// too thin), so a forged size never reaches a layout.
  public var aspectRatioWithinFeedLimits: Double? {
    isWithinFeedLimits ? aspectRatio : nil
  }
}
