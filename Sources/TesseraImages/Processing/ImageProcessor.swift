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

  init(
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
