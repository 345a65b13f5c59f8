/// What an image slot needs from an image pipeline: a synchronous memory-cache look-up and an
/// asynchronous, cancellable load that completes on the main actor.
///
/// `TesseraImageBinding`'s `PipelineImageLoader` adapts `TesseraImages`' pipeline to it; a
/// test or a simulator can provide its own.
@MainActor
public protocol ImageLoading<Image, Request>: AnyObject {
  /// The decoded image a cell shows.
  associatedtype Image
  /// What names an image to load (a URL, a size, …).
  associatedtype Request

  /// The image if it is in memory right now (no I/O, no decoding).
  func cachedImage(for request: Request) -> Image?

  /// Starts (or joins) a load; `completion` runs on the main actor with the image or the
  /// error (whose description a person reads in the failed cell). Cancelling may or may not
  /// stop the completion from arriving.
  func loadImage(
    for request: Request,
    completion: @escaping @MainActor @Sendable (Result<Image, any Error>) -> Void
  )
    -> ImageLoadCancellation
}

/// Stops interest in one load.
public struct ImageLoadCancellation: Sendable {
  private let body: @MainActor @Sendable () -> Void

  /// A cancellation that runs `body` when cancelled.
  public init(_ body: @escaping @MainActor @Sendable () -> Void) { self.body = body }

  /// A cancellation that does nothing: for a load that cannot be stopped.
  public static let none = ImageLoadCancellation {}

  /// Stops interest in the load.
  @MainActor public func cancel() { body() }
}
