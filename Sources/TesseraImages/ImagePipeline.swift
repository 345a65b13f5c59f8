import Foundation
import TesseraUtilities

/// Loads images for requests: memory cache → coalesced task → disk cache → data loader →
/// decoder (downsampled on load) → memory cache → delivery.
///
/// ```swift
/// let pipeline = ImagePipeline(configuration: .init(
///   dataLoader: URLSessionDataLoader(), memoryCache: MemoryCache(), diskCache: try? DiskCache()))
/// if let image = pipeline.cachedImage(for: request) { show(image) }     // same frame
/// let task = pipeline.loadImage(with: request) { result in … }        // on the main actor
/// task.priority = .low; task.cancel()
/// ```
public final class ImagePipeline: Sendable {
  public let configuration: Configuration
  let core: PipelineCore

  public init(configuration: Configuration = Configuration()) {
    self.configuration = configuration
    self.core = PipelineCore(configuration: configuration)
  }

  public var memoryCache: MemoryCache? { configuration.memoryCache }
  public var diskCache: DiskCache? { configuration.diskCache }

  /// The decoded image if the memory cache holds it: synchronous, O(1), for the same-frame
  /// path. Nil for `.reload` requests, which must not be served from a cache, and for a
  /// network request naming a local file (never loaded, so never served either).
  public func cachedImage(for request: ImageRequest) -> Image? {
    guard request.cachePolicy != .reload else { return nil }
    guard request.source == .localFolder || !request.url.isFileURL else { return nil }
    return configuration.memoryCache?.image(for: request.memoryCacheKey)
  }

  /// Loads the image and calls `completion` once on the main actor, always asynchronously
  /// (even for a memory-cache hit): with the image, an error, or `.cancelled`.
  @MainActor @discardableResult
  public func loadImage(
    with request: ImageRequest,
    completion: @escaping @MainActor (Result<Image, ImagePipelineError>) -> Void
  ) -> ImageTask {
    startTask(with: request) { task, result in
      Task { @MainActor in completion(task.finish(result)) }
    }
  }

  /// Like `loadImage(with:completion:)` but `completion` runs on whichever thread finished
  /// the work: before this returns for a memory-cache hit or an invalid URL, inside
  /// `cancel()` for a cancellation. For tests, simulators on a virtual clock and code that is
  /// not on the main actor.
  @discardableResult
  public func startImageTask(
    with request: ImageRequest,
    completion: @escaping @Sendable (Result<Image, ImagePipelineError>) -> Void
  ) -> ImageTask {
    startTask(with: request) { task, result in completion(task.finish(result)) }
  }

  /// Loads the image. Cancelling the calling task cancels this load (shared work continues
  /// while others need it).
  public func image(for request: ImageRequest) async throws(ImagePipelineError) -> Image {
    if let image = cachedImage(for: request) { return image }
    let box = Locked<ImageTask?>(nil)
    let result = await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        let task = startImageTask(
          with: request, completion: { result in continuation.resume(returning: result) }
        )
        box.withLock { $0 = task }
        if Task.isCancelled { task.cancel() }
      }
    } onCancel: {
      box.withLock { $0 }?.cancel()
    }
    return try result.get()
  }

  /// A snapshot of the counters, with the memory cache's hits and misses.
  public var statistics: PipelineStatistics {
    var snapshot = core.statistics
    if let memory = configuration.memoryCache?.statistics {
      snapshot.memoryHits = memory.hits
      snapshot.memoryMisses = memory.misses
    }
    return snapshot
  }

  private func startTask(
    with request: ImageRequest,
    deliver: @escaping @Sendable (ImageTask, Result<Image, ImagePipelineError>) -> Void
  ) -> ImageTask {
    if let image = cachedImage(for: request) {
      let task = ImageTask(id: 0, request: request, core: nil)
      deliver(task, .success(image))
      return task
    }
    // The handle exists before the core is asked, so a completion that comes back at once, on
    // any thread, already has its task: there is no second step to lose it in.
    let task = ImageTask(id: core.reserveTaskID(), request: request, core: core)
    core.startImageTask(request, id: task.id, priority: request.priority) { outcome in
      deliver(task, Self.result(of: outcome))
    }
    return task
  }

  static func result(of outcome: TaskOutcome) -> Result<Image, ImagePipelineError> {
    switch outcome {
    case .image(let image): .success(image)
    case .failure(let error): .failure(error)
    case .dataReady: .failure(.decodingFailed("internal: a data task delivered to an image task"))
    }
  }
}
