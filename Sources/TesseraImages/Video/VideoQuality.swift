/// The size and rate a video plays at: the detail view's box at the video's own rate, within
/// bounds that keep a decode's CPU and memory stated, and smaller and slower when the link to
/// the terminal cannot carry more (over SSH a frame's bytes are the limit, not the decode).
package enum VideoQuality {
  /// The largest frame decoded: 1920×1080 (8 MB as RGBA), whatever the box.
  package static let largest = PixelSize(width: 1920, height: 1080)
  /// The highest rate played; faster videos drop frames to it.
  package static let fastest = 30
  /// The rate when the video does not say its own.
  package static let usualRate = 25.0
  /// What a frame is taken to cost on the link per pixel: compressed kitty and iTerm2 frames
  /// and sixel's palette bytes of photo-like video are each near one byte a pixel.
  static let bytesPerPixel = 1.0
  /// Of the link's rate, what frames may use; the rest is text and the answers.
  static let linkShare = 0.8
  /// Below this rate the picture shrinks before it slows further.
  static let slowestBeforeShrinking = 8
  /// The smallest a frame shrinks to, as a fraction of the box's sides.
  static let smallestScale = 0.25

  /// The frame size and rate for a `box` of pixels, a video of `sourceRate` frames a second
  /// (nil: unknown) and a link measured at `linkBytesPerSecond` (nil: not measured).
  /// - Complexity: O(1).
  package static func choose(
    box: PixelSize, sourceRate: Double?, linkBytesPerSecond: Double?
  ) -> (size: PixelSize, framesPerSecond: Int) {
    let rate = sourceRate.flatMap { $0.isFinite && $0 > 0 ? $0 : nil } ?? usualRate
    var framesPerSecond = min(fastest, max(1, Int(rate.rounded())))
    var width = Double(min(max(1, box.width), largest.width))
    var height = Double(min(max(1, box.height), largest.height))
    guard let link = linkBytesPerSecond, link.isFinite, link > 0 else {
      return (PixelSize(width: Int(width), height: Int(height)), framesPerSecond)
    }
    let perSecond = link * linkShare / bytesPerPixel
    if width * height * Double(framesPerSecond) > perSecond {
      let fitting = Int(perSecond / (width * height))
      framesPerSecond = max(min(framesPerSecond, slowestBeforeShrinking), fitting)
    }
    if width * height * Double(framesPerSecond) > perSecond {
      let scale = max(
        smallestScale, (perSecond / (width * height * Double(framesPerSecond))).squareRoot())
      width = max(1, (width * scale).rounded(.down))
      height = max(1, (height * scale).rounded(.down))
    }
    if width * height * Double(framesPerSecond) > perSecond {
      framesPerSecond = max(1, Int(perSecond / (width * height)))
    }
    return (PixelSize(width: Int(width), height: Int(height)), framesPerSecond)
  }
}
