import TesseraCollection
import TesseraImages

/// Loads the images of a collection's cells through an `ImagePipeline`: the
/// `ImageLoading` that an `ImageSlot` binds with.
///
/// Completions run on the main actor. Cancelling a load (what a slot does when its cell is
/// reused or leaves the screen) stops waiting for it; the pipeline stops the shared download
/// and decode only when nothing else, such as a prefetch, still wants them.
///
/// It also counts what a status line shows: loads in flight, loaded and failed. Every load
/// ends once (with the image, an error, or cancelled), so `inFlight` returns to 0 when the
/// pipeline is idle.
///
/// ```swift
/// let loader = PipelineImageLoader()  // over ImagePipeline.shared
/// loader.onSettled = { screen.needsDisplay = true }
/// cell.slot.bind(item: photo.id, request: ImageRequest(url: photo.url), loader: loader)
/// ```
@MainActor
public final class PipelineImageLoader: ImageLoading {
  /// The pipeline's decoded image.
  public typealias Image = TesseraImages.Image
  /// What to load: a URL, the box to decode into and how to fit it.
  public typealias Request = ImageRequest

  /// The pipeline every load goes through.
  public let pipeline: ImagePipeline
  /// Loads started and not yet ended.
  public private(set) var inFlight = 0
  /// Loads that ended with an image (memory-cache hits through `cachedImage(for:)` are not
  /// loads and are not counted).
  public private(set) var loaded = 0
  /// Loads that ended with an error other than cancellation.
  public private(set) var failed = 0
  /// Called on the main actor after every load ends, after its completion: redraw here.
  public var onSettled: (@MainActor () -> Void)?

  /// A loader over `pipeline` (by default the process's shared one).
  public init(pipeline: ImagePipeline = .shared) {
    self.pipeline = pipeline
  }

  /// The decoded image if the pipeline's memory cache holds it: no I/O, no decoding, O(1).
  public func cachedImage(for request: ImageRequest) -> Image? {
    pipeline.cachedImage(for: request)
  }

  /// Starts (or joins) a load of `request`; `completion` runs once on the main actor, always
  /// asynchronously, with the image or the error. After the returned cancellation runs, the
  /// completion that still arrives carries `ImagePipelineError.cancelled`.
  public func loadImage(
    for request: ImageRequest,
    completion: @escaping @MainActor @Sendable (Result<Image, any Error>) -> Void
  ) -> ImageLoadCancellation {
    inFlight += 1
    let task = pipeline.loadImage(with: request) { [weak self] result in
      completion(result.mapError { $0 })
      guard let self else { return }
      self.inFlight -= 1
      switch result {
      case .success: self.loaded += 1
      case .failure(.cancelled): break
      case .failure: self.failed += 1
      }
      self.onSettled?()
    }
    return ImageLoadCancellation { task.cancel() }
  }
}
