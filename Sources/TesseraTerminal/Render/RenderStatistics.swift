/// Counters a renderer keeps, for the status bar and benchmarks.
public struct RenderStatistics: Sendable, Hashable {
  public var frames = 0
  public var bytes = 0
  public var cellsWritten = 0
  /// Images converted to cells, encoded as sixel, or uploaded to kitty.
  public var imageConversions = 0
  /// Images drawn from a cache (cells, sixel bytes, or an existing kitty upload).
  public var imageCacheHits = 0
  /// Images left as placeholders by the frame's ``ImageDrawPolicy``.
  public var imagesDeferred = 0
  /// Output pixels computed by resampling images (half blocks, sixel, kitty uploads): bounded
  /// by what the screen shows, whatever the images' sizes or shapes.
  public var pixelsResampled = 0
  /// Bytes of kitty uploads (escape codes included): what the images cost on the wire.
  public var imageBytesUploaded = 0
  /// Bytes of image data in every protocol but blocks (kitty uploads and placements, sixel
  /// and iTerm2 draws): what a ``LinkPacer`` paces.
  public var imageBytes = 0
  /// Images drawn at preview resolution (``ImageDrawPolicy/preview``): kitty's uploads of a
  /// twenty-fifth of the pixels, sixel's coarse previews (``SixelPreview``).
  public var previewUploads = 0

  public init() {}
}
