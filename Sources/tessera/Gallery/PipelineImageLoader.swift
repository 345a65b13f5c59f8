import TesseraCollection
import TesseraImages

/// Adapts the image pipeline to the collection engine's image slots, and counts what the
/// status bar shows: loads in flight, done and failed.
@MainActor
final class PipelineImageLoader: ImageLoading {
  typealias Image = TesseraImages.Image
  typealias Request = ImageRequest

  let pipeline: ImagePipeline
  private(set) var inFlight = 0
  private(set) var loaded = 0
  private(set) var failed = 0
  /// Called when a load ends, so the screen redraws.
  var onSettled: (@MainActor () -> Void)?

  init(pipeline: ImagePipeline) {
    self.pipeline = pipeline
  }

  func cachedImage(for request: ImageRequest) -> Image? {
    pipeline.cachedImage(for: request)
  }

  func loadImage(
    for request: ImageRequest,
    completion: @escaping @MainActor @Sendable (Result<Image, any Error>) -> Void
  ) -> ImageLoadCancellation {
    inFlight += 1
    let task = pipeline.loadImage(with: request) { [weak self] result in
      if let self {
        self.inFlight -= 1
        switch result {
        case .success: self.loaded += 1
        case .failure(.cancelled): break
        case .failure: self.failed += 1
        }
        self.onSettled?()
      }
      completion(result.mapError { $0 })
    }
    return ImageLoadCancellation { task.cancel() }
  }

  /// Lowers or raises a running load (visible cells outrank prefetch).
  func reprioritize(_ task: ImageTask, to priority: ImageRequest.Priority) {
    task.priority = priority
  }
}
