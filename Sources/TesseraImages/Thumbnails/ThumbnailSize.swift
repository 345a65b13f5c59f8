/// The freedesktop.org thumbnail sizes: each is a folder of PNGs that fit in a square of its
/// side (never upscaled: an original smaller than the square is stored at its own size).
enum ThumbnailSize: Int, CaseIterable, Comparable, Sendable {
  case normal = 128
  case large = 256
  case xLarge = 512
  case xxLarge = 1024

  /// The folder under `thumbnails/`.
  var folderName: String {
    switch self {
    case .normal: "normal"
    case .large: "large"
    case .xLarge: "x-large"
    case .xxLarge: "xx-large"
    }
  }

  /// The side of the square, in pixels.
  var side: Int { rawValue }

  static func < (lhs: ThumbnailSize, rhs: ThumbnailSize) -> Bool { lhs.rawValue < rhs.rawValue }

  /// The sizes whose square can hold a `target` box, smallest first (none past 1024 px).
  /// - Complexity: O(1).
  static func candidates(for target: PixelSize) -> [ThumbnailSize] {
    let side = max(target.width, target.height)
    return allCases.filter { $0.side >= side }
  }

  /// Whether a thumbnail of `thumbnail` pixels has enough of them for a decode into `target`
  /// with `mode`, so the result matches a decode of the original: an aspect-fit box is met on
  /// one side, a fill or exact box on both. A thumbnail as large as its original (`original`,
  /// when known) always does. One pixel of slack for the writer's rounding.
  static func covers(
    _ thumbnail: PixelSize, original: PixelSize?, target: PixelSize,
    contentMode: ImageRequest.ContentMode
  ) -> Bool {
    if let original, thumbnail.width >= original.width, thumbnail.height >= original.height {
      return true
    }
    let wide = thumbnail.width + 1 >= target.width
    let tall = thumbnail.height + 1 >= target.height
    return contentMode == .aspectFit ? wide || tall : wide && tall
  }
}
