import TesseraUtilities

/// A handle on one load: cancel it, or change its priority while it waits.
///
/// Every task is completed exactly once: with the image, with an error, or with
/// `.cancelled`. Once `cancel()` has returned, a completion not yet delivered is `.cancelled`
/// (so a cell that cancelled its old request can never receive that image).
public final class ImageTask: Sendable, Hashable, CustomStringConvertible {
  private struct State {
    var priority: ImageRequest.Priority
    var isCancelled = false
    var isCompleted = false
  }

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
        guard !state.isCompleted, !state.isCancelled, state.priority != newValue else {
          return false
        }
        state.priority = newValue
        return true
      }
      if changed { core?.setPriority(newValue, of: id) }
    }
  }

  /// Stops waiting for the image. The shared download and decode stop only when no other
  /// task needs them. Cancelling a completed task does nothing.
  public func cancel() {
    let first = state.withLock { state -> Bool in
      guard !state.isCancelled, !state.isCompleted else { return false }
      state.isCancelled = true
      return true
    }
    if first { core?.cancel(id) }
  }

  public var isCancelled: Bool { state.withLock { $0.isCancelled } }

  /// Marks the task delivered and returns what to deliver: `.cancelled` replaces a result
  /// that raced with `cancel()`.
  func finish(_ result: Result<Image, ImagePipelineError>) -> Result<Image, ImagePipelineError> {
    state.withLock { state in
      state.isCompleted = true
      return state.isCancelled ? .failure(.cancelled) : result
    }
  }

  public static func == (lhs: ImageTask, rhs: ImageTask) -> Bool { lhs === rhs }
  public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

  public var description: String { "ImageTask(\(id), \(request))" }
}
