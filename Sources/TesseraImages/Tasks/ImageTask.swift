import TesseraUtilities

/// A handle on one load: await its image, follow its progress, cancel it, or change its
/// priority while it waits.
///
/// ```swift
/// let task = pipeline.imageTask(with: request)
/// for await progress in task.progress { show(progress.fraction) }
/// let image = try await task.image
/// ```
///
/// Every task is completed exactly once: with the image, with an error, or with
/// `.cancelled`. Once `cancel()` has returned, a completion not yet delivered is `.cancelled`
/// (so a cell that cancelled its old request can never receive that image). `image` and
/// `response` may be awaited any number of times, from any number of tasks: each gets the same
/// result.
public final class ImageTask: Sendable, Hashable, CustomStringConvertible {
  /// Bytes received so far for a task's download.
  public struct Progress: Sendable, Hashable, CustomStringConvertible {
    /// Bytes of the body received so far.
    public var completed: Int
    /// The body's size as the server announced it (`Content-Length`); nil when it did not.
    public var total: Int?

    /// Progress of `completed` bytes out of `total`.
    public init(completed: Int, total: Int?) {
      self.completed = completed
      self.total = total
    }

    /// `completed / total` within 0...1; nil when the total is unknown (or zero).
    public var fraction: Double? {
      guard let total, total > 0 else { return nil }
      return min(1, max(0, Double(completed) / Double(total)))
    }

    /// "COMPLETED/TOTAL bytes", with "?" for an unknown total.
    public var description: String { "\(completed)/\(total.map(String.init) ?? "?") bytes" }
  }

  typealias Outcome = Result<ImageResponse, ImagePipelineError>

  private struct State {
    var priority: ImageRequest.Priority
    var isCancelled = false
    var outcome: Outcome?
    var waiters: [CheckedContinuation<Outcome, Never>] = []
    var progressStreams: [UInt64: AsyncStream<Progress>.Continuation] = [:]
    var nextStreamID: UInt64 = 0
  }

  /// What this task loads.
  public let request: ImageRequest
  let id: TaskID
  private weak let core: PipelineCore?
  private let state: Locked<State>

  init(id: TaskID, request: ImageRequest, core: PipelineCore?) {
    self.id = id
    self.request = request
    self.core = core
    self.state = Locked(State(priority: request.priority))
  }

  /// The task's current priority. Setting it moves the work in its queue at once (the
  /// shared work runs at its most urgent subscriber's priority).
  public var priority: ImageRequest.Priority {
    get { state.withLock { $0.priority } }
    set {
      let changed = state.withLock { state -> Bool in
        guard state.outcome == nil, !state.isCancelled, state.priority != newValue else {
          return false
        }
        state.priority = newValue
        return true
      }
      if changed { core?.setPriority(newValue, of: id) }
    }
  }

  /// The image, once loaded. Awaiting it again returns the same image (or throws the same
  /// error). Cancelling the awaiting Swift task cancels this image task.
  public var image: Image {
    get async throws(ImagePipelineError) { try await response.image }
  }

  /// The image with where it came from, once loaded. Awaiting it again returns the same
  /// response (or throws the same error). Cancelling the awaiting Swift task cancels this
  /// image task (and with it the download, unless another task still needs it).
  public var response: ImageResponse {
    get async throws(ImagePipelineError) {
      let outcome = await withTaskCancellationHandler {
        await withCheckedContinuation { continuation in
          let ready = state.withLock { state -> Outcome? in
            if let outcome = state.outcome { return outcome }
            state.waiters.append(continuation)
            return nil
          }
          if let ready { continuation.resume(returning: ready) }
        }
      } onCancel: {
        cancel()
      }
      return try outcome.get()
    }
  }

  /// The download's progress, as it happens: a new stream on each access, which ends when the
  /// task completes (at once if it already has). Memory-cache hits, disk-cache hits and
  /// loaders that do not report progress send nothing. A consumer that falls behind gets the
  /// newest updates (up to 32 are kept).
  public var progress: AsyncStream<Progress> {
    let (stream, continuation) = AsyncStream<Progress>.makeStream(
      bufferingPolicy: .bufferingNewest(32))
    let registered = state.withLock { state -> UInt64? in
      guard state.outcome == nil else { return nil }
      state.nextStreamID += 1
      state.progressStreams[state.nextStreamID] = continuation
      return state.nextStreamID
    }
    guard let registered else {
      continuation.finish()
      return stream
    }
    continuation.onTermination = { [weak self] _ in
      self?.state.withLock { _ = $0.progressStreams.removeValue(forKey: registered) }
    }
    return stream
  }

  /// Stops waiting for the image. The shared download and decode stop only when no other
  /// task needs them. Cancelling a completed task does nothing.
  public func cancel() {
    let first = state.withLock { state -> Bool in
      guard !state.isCancelled, state.outcome == nil else { return false }
      state.isCancelled = true
      return true
    }
    guard first else { return }
    if let core {
      core.cancel(id)
    } else if id != 0 {
      // The pipeline is gone and will deliver nothing: awaiting callers must not hang.
      _ = finish(.failure(.cancelled))
    }
  }

  /// Whether `cancel()` was called before the task completed.
  public var isCancelled: Bool { state.withLock { $0.isCancelled } }

  /// Reports download progress to the task's progress streams.
  func report(_ progress: Progress) {
    let streams = state.withLock { Array($0.progressStreams.values) }
    for stream in streams { stream.yield(progress) }
  }

  /// Marks the task completed and returns what to deliver: `.cancelled` replaces a result
  /// that raced with `cancel()`. Wakes every caller awaiting `response` and ends the progress
  /// streams. Only the first call counts; later ones return the first outcome.
  @discardableResult
  func finish(_ outcome: Outcome) -> Outcome {
    typealias Wakeups = (
      outcome: Outcome, waiters: [CheckedContinuation<Outcome, Never>],
      streams: [AsyncStream<Progress>.Continuation]
    )
    let (final, waiters, streams) = state.withLock { state -> Wakeups in
      if let done = state.outcome { return (done, [], []) }
      let final: Outcome = state.isCancelled ? .failure(.cancelled) : outcome
      state.outcome = final
      let wakeups = (final, state.waiters, Array(state.progressStreams.values))
      state.waiters.removeAll()
      state.progressStreams.removeAll()
      return wakeups
    }
    for waiter in waiters { waiter.resume(returning: final) }
    for stream in streams { stream.finish() }
    return final
  }

  /// Identity: two handles are equal only if they are the same task.
  public static func == (lhs: ImageTask, rhs: ImageTask) -> Bool { lhs === rhs }

  /// Hashes the task's identity.
  public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

  /// "ImageTask(ID, REQUEST)".
  public var description: String { "ImageTask(\(id), \(request))" }
}
