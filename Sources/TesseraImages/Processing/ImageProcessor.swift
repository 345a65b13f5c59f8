import Foundation

/// One step applied to a decoded image before it is cached and delivered: resize, crop,
/// round the corners, cut a circle, blur, or the caller's own. A request's processors
/// (``ImageRequest/processors``) run in order on the decoder's thread, and their identifiers
/// take part in the memory-cache key, so a blurred and a sharp copy of one photo are two
/// images.
///
/// ```swift
/// request.processors = [.crop(Rect(x: 0, y: 0, width: 100, height: 100)), .gaussianBlur(sigma: 2)]
/// ```
public struct ImageProcessor: Hashable, Sendable, CustomStringConvertible {
  /// What names the step in cache keys: equal identifiers must mean equal results.
  public let identifier: String
  private let transform: @Sendable (Image) throws(ImagePipelineError) -> Image

  /// A processor of the caller's own: `identifier` names what it does (and its parameters)
  /// in cache keys, `transform` does it.
  public static func custom(
    id identifier: String,
    _ transform: @escaping @Sendable (Image) throws(ImagePipelineError) -> Image
  ) -> ImageProcessor {
    ImageProcessor(identifier: "custom:" + identifier, transform: transform)
  }

  private init(
    identifier: String, transform: @escaping @Sendable (Image) throws(ImagePipelineError) -> Image
  ) {
    self.identifier = identifier
    self.transform = transform
  }

  /// The step applied to `image`.
  public func process(_ image: Image) throws(ImagePipelineError) -> Image { try transform(image) }

  /// Processors are equal when their identifiers are: what a cache key compares.
  public static func == (lhs: ImageProcessor, rhs: ImageProcessor) -> Bool {
    lhs.identifier == rhs.identifier
  }

  /// Hashes the identifier.
  public func hash(into hasher: inout Hasher) { hasher.combine(identifier) }

  /// Its identifier.
  public var description: String { identifier }
}

extension ImageProcessor {
  /// Resized into `size` as `contentMode` says (never enlarged but by `.exact`), by area
  /// averaging. O(pixels read + pixels written × taps).
  public static func resize(
    _ size: PixelSize, _ contentMode: ImageRequest.ContentMode = .aspectFill
  ) -> ImageProcessor {
    ImageProcessor(identifier: "resize:\(size.width)x\(size.height),\(contentMode)") {
      image throws(ImagePipelineError) in
      try ImageDecoder.requirePositive(size)
      return try image.fitted(into: size, contentMode: contentMode)
    }
  }

  /// The part of the image `rect` covers, in its pixels; a rectangle partly outside is cut
  /// to the image, one wholly outside fails. O(pixels kept).
  public static func crop(_ rect: Rect) -> ImageProcessor {
    ImageProcessor(
      identifier: "crop:\(rect.x),\(rect.y),\(rect.width)x\(rect.height)"
    ) { image throws(ImagePipelineError) in try image.cropped(to: rect) }
  }

  /// Corners cut round with `radius` pixels (at most half the shorter side), their edge
  /// anti-aliased into the alpha. O(pixels).
  public static func roundedCorners(radius: Int) -> ImageProcessor {
    ImageProcessor(identifier: "rounded:\(radius)") { image throws(ImagePipelineError) in
      try image.masked(cornerRadius: Double(max(0, radius)))
    }
  }

  /// The centre square cut as a circle: transparent outside, anti-aliased at the edge.
  /// O(pixels).
  public static let circle = ImageProcessor(identifier: "circle") {
    image throws(ImagePipelineError) in
    let side = min(image.width, image.height)
    let square = try image.cropped(
      to: Rect(x: (image.width - side) / 2, y: (image.height - side) / 2, width: side, height: side)
    )
    return try square.masked(cornerRadius: Double(side) / 2)
  }

  /// Blurred by a Gaussian of `sigma` pixels (clamped to 0.1…100), through libvips.
  /// O(pixels × sigma).
  public static func gaussianBlur(sigma: Double) -> ImageProcessor {
    let sigma = sigma.isFinite ? min(max(sigma, 0.1), 100) : 0.1
    return ImageProcessor(identifier: "blur:\(sigma)") { image throws(ImagePipelineError) in
      try image.blurred(sigma: sigma)
    }
  }
}
