import Foundation

/// Loads images for requests: memory cache → coalesced task → disk cache → data loader →
/// decoder (downsampled on load) → memory cache → delivery.
///
/// ```swift
/// let image = try await ImagePipeline.shared.image(for: url)
///
/// let task = pipeline.imageTask(with: ImageRequest(url: url, targetSize: box))
/// task.priority = .low      // scrolled out of view: others go first
/// task.cancel()             // gone: the download stops unless another task needs it
/// ```
///
/// Identical requests share one download and one decode; different sizes of one URL share
/// the download. Every stage has its own concurrency limit and a priority line in front of it.
public final class ImagePipeline: Sendable {
  /// What this pipeline loads with, caches in, and its limits.
  public let configuration: Configuration
  let core: PipelineCore

  /// A pipeline with its own queues over `configuration`'s loader and caches (caches may be
  /// shared between pipelines).
  public init(configuration: Configuration = Configuration()) {
    self.configuration = configuration
    self.core = PipelineCore(configuration: configuration)
  }

  /// The memory cache of decoded images, if the configuration has one.
  public var memoryCache: (any ImageCaching)? { configuration.memoryCache }
  /// The disk cache of downloaded bytes, if the configuration has one.
  public var diskCache: (any DataCaching)? { configuration.diskCache }

  /// The decoded image if the memory cache holds it: synchronous, O(1), for the same-frame
  /// path. Nil for `.reload` requests, which must not be served from a cache, for requests
  /// that disable memory-cache reads, and for a
  /// network request naming a local file (never loaded, so never served either).
  public func cachedImage(for request: ImageRequest) -> Image? {
    guard request.readsMemoryCache else { return nil }
    return configuration.memoryCache?.image(for: request.memoryCacheKey)
  }

  // MARK: Async

  /// Loads the image at `url` at its original size. Cancelling the calling task cancels the
  /// load (shared work goes on while others need it).
  public func image(for url: URL) async throws(ImagePipelineError) -> Image {
    try await image(for: ImageRequest(url: url))
  }

  /// Loads the image. Cancelling the calling task cancels this load (shared work continues
  /// while others need it).
  public func image(for request: ImageRequest) async throws(ImagePipelineError) -> Image {
    if let image = cachedImage(for: request) { return image }
    return try await imageTask(with: request).image
  }

  /// Starts loading `request` and returns its task: await `image` or `response`, read
  /// `progress`, change `priority` or `cancel()` it.
  public func imageTask(with request: ImageRequest) -> ImageTask {
    startTask(with: request) { task, outcome in task.finish(outcome) }
  }

  /// Starts loading the image at `url` at its original size; see `imageTask(with:)`.
  public func imageTask(with url: URL) -> ImageTask {
    imageTask(with: ImageRequest(url: url))
  }

  // MARK: Completion handlers

  /// Loads the image and calls `completion` once on the main actor, always asynchronously
  /// (even for a memory-cache hit): with the image, an error, or `.cancelled`.
  @MainActor @discardableResult
  public func loadImage(
    with request: ImageRequest,
    completion: @escaping @MainActor (Result<Image, ImagePipelineError>) -> Void
  ) -> ImageTask {
    startTask(with: request) { task, outcome in
      Task { @MainActor in completion(task.finish(outcome).map(\.image)) }
    }
  }

  /// Like `loadImage(with:completion:)` but `completion` runs on whichever thread finished
  /// the work: before this returns for a memory-cache hit or an invalid URL, inside
  /// `cancel()` for a cancellation. For simulators on a virtual clock, benchmarks and tests.
  @discardableResult
  package func startImageTask(
    with request: ImageRequest,
    completion: @escaping @Sendable (Result<Image, ImagePipelineError>) -> Void
  ) -> ImageTask {
    startTask(with: request) { task, outcome in completion(task.finish(outcome).map(\.image)) }
  }

  /// A snapshot of the counters, with the memory cache's hits and misses.
  public var statistics: PipelineStatistics {
    var snapshot = core.statistics
    if let memory = (configuration.memoryCache as? MemoryCache)?.statistics {
      snapshot.memoryHits = memory.hits
      snapshot.memoryMisses = memory.misses
    }
    return snapshot
  }

  private func startTask(
    with request: ImageRequest,
    deliver: @escaping @Sendable (ImageTask, ImageTask.Outcome) -> Void
  ) -> ImageTask {
    if let image = cachedImage(for: request) {
      let task = ImageTask(id: 0, request: request, core: nil)
      deliver(task, .success(ImageResponse(image: image, url: request.url, origin: .memoryCache)))
      return task
    }
    // The handle exists before the core is asked, so a completion that comes back at once, on
    // any thread, already has its task: there is no second step to lose it in.
    let task = ImageTask(id: core.reserveTaskID(), request: request, core: core)
    core.startImageTask(
      request, id: task.id, priority: request.priority,
      progress: { [weak task] progress in task?.report(progress) },
      deliver: { outcome in deliver(task, Self.outcome(of: outcome, for: request)) })
    return task
  }

  static func outcome(of outcome: TaskOutcome, for request: ImageRequest) -> ImageTask.Outcome {
    switch outcome {
    case .image(let image, let origin):
      .success(ImageResponse(image: image, url: request.url, origin: origin))
    case .failure(let error): .failure(error)
    case .dataReady: .failure(.decodingFailed("internal: a data task delivered to an image task"))
    }
  }
}
