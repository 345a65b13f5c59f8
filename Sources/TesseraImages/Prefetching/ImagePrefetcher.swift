import TesseraUtilities

/// Warms the caches for requests the user is likely to see next (the rows just past the
/// screen), at low priority so visible requests always go first.
///
/// Prefetches share work with visible requests like any other subscriber: stopping a
/// prefetch cancels only what nobody else is waiting for. Thread-safe; bookkeeping is O(1)
/// per request.
public final class ImagePrefetcher: Sendable {
  /// Where prefetched images end up.
  public enum Destination: Sendable {
    /// Downloaded, decoded at the request's size and kept in the memory cache.
    case memoryCache
    /// Downloaded into the disk cache only: cheap in memory, one decode left for later.
    case diskCache
  }

  /// The pipeline prefetches go through (and share work with).
  public let pipeline: ImagePipeline
  /// Where prefetched images end up.
  public let destination: Destination
  /// The priority of every prefetch; `.low` by default, below anything visible.
  public let priority: ImageRequest.Priority
  private let didComplete: @Sendable (ImageRequest, ImagePipelineError?) -> Void
  private struct Running {
    let token: UInt64
    var id: TaskID?
  }

  private struct State {
    var running: [DecodeKey: Running] = [:]
    var nextToken: UInt64 = 0
  }

  private let tasks = Locked(State())

  /// - Parameters:
  ///   - pipeline: the pipeline prefetches go through (and share work with).
  ///   - destination: the memory cache (decoded) or only the disk cache (downloaded).
  ///   - priority: every prefetch's priority, below visible requests by default.
  ///   - didComplete: called (on any thread) when a prefetch ends: nil when the image is
  ///     warm, else why not (`.cancelled` after `stopPrefetching`).
  public init(
    pipeline: ImagePipeline, destination: Destination = .memoryCache,
    priority: ImageRequest.Priority = .low,
    didComplete: @escaping @Sendable (ImageRequest, ImagePipelineError?) -> Void = { _, _ in }
  ) {
    self.pipeline = pipeline
    self.destination = destination
    self.priority = priority
    self.didComplete = didComplete
  }

  /// Starts prefetching each request not already cached or being prefetched.
  public func startPrefetching(with requests: [ImageRequest]) {
    for request in requests { start(request) }
  }

  /// Stops prefetching these requests (work another task shares goes on).
  public func stopPrefetching(with requests: [ImageRequest]) {
    let ids = tasks.withLock { state in
      requests.compactMap { state.running.removeValue(forKey: key($0))?.id }
    }
    pipeline.core.cancel(ids)
  }

  /// Stops every prefetch.
  public func stopPrefetching() {
    let ids = tasks.withLock { state in
      defer { state.running.removeAll() }
      return state.running.values.compactMap(\.id)
    }
    pipeline.core.cancel(ids)
  }

  /// Prefetches still running.
  public var activeCount: Int { tasks.withLock { $0.running.count } }

  private func key(_ request: ImageRequest) -> DecodeKey {
    switch destination {
    case .memoryCache: DecodeKey(request)
    case .diskCache:
      DecodeKey(
        image: MemoryCacheKey(url: request.diskKey, targetSize: nil, contentMode: .aspectFit),
        policy: request.cachePolicy)
    }
  }

  private func start(_ request: ImageRequest) {
    let key = key(request)
    switch destination {
    case .memoryCache:
      if pipeline.memoryCache?.contains(request.memoryCacheKey) == true { return }
    case .diskCache:
      guard let disk = pipeline.diskCache, !request.url.isFileURL else { return }
      if request.cachePolicy != .reload, disk.contains(request.diskKey) { return }
    }
    // The slot is claimed (with a token of its own) before the task starts, so a completion
    // that comes back at once, or late after a restart of the same prefetch, clears only
    // its own slot.
    let token = tasks.withLock { state -> UInt64? in
      guard state.running[key] == nil else { return nil }
      state.nextToken += 1
      state.running[key] = Running(token: state.nextToken, id: nil)
      return state.nextToken
    }
    guard let token else { return }
    let clear: @Sendable (TaskOutcome) -> Void = { [tasks, didComplete] outcome in
      tasks.withLock { state in
        if state.running[key]?.token == token { state.running.removeValue(forKey: key) }
      }
      if case .failure(let error) = outcome {
        didComplete(request, error)
      } else {
        didComplete(request, nil)
      }
    }
    let id =
      switch destination {
      case .memoryCache: pipeline.core.startImageTask(request, priority: priority, deliver: clear)
      case .diskCache: pipeline.core.startDataTask(request, priority: priority, deliver: clear)
      }
    // Stopped while starting: cancel now (a no-op if it already completed).
    let stopped = tasks.withLock { state -> Bool in
      guard state.running[key]?.token == token else { return true }
      state.running[key]?.id = id
      return false
    }
    if stopped { pipeline.core.cancel(id) }
  }
}
