import Foundation
import TesseraImages
import TesseraUtilities

/// A data loader the test drives: each call is recorded by URL and held until the test
/// releases that URL; cancellation is recorded too. No timing: a test waits for a state.
final class HeldDataLoader: DataLoading {
  typealias Answer = Result<DataResponse, ImagePipelineError>

  struct Snapshot: Sendable {
    /// URLs (last path component) in call order.
    var calls: [String] = []
    /// URLs whose call was cancelled, in order.
    var cancelled: [String] = []
    /// URLs with a call being held.
    var held: Set<String> = []
  }

  private struct State {
    var snapshot = Snapshot()
    var continuations: [Int: (name: String, continuation: CheckedContinuation<Answer, Never>)] =
      [:]
    var cancelledEarly: Set<Int> = []
    var waiters:
      [Int: (predicate: @Sendable (Snapshot) -> Bool, go: CheckedContinuation<Void, Never>)] = [:]
    var nextWaiter = 0

    mutating func refreshHeld() {
      snapshot.held = Set(continuations.values.map(\.name))
    }
  }

  // `Locked` (NSLock, a pthread mutex ThreadSanitizer sees), not Synchronization's `Mutex`:
  // on Linux that locks with bare futex calls TSan cannot see, so every access under it was
  // reported as a race (13 reports in `make sanitize`, none real).
  private let state = Locked(State())

  func loadData(for request: DataRequest) async throws(ImagePipelineError) -> DataResponse {
    let name = request.url.lastPathComponent
    let index = state.withLock { state in
      state.snapshot.calls.append(name)
      return state.snapshot.calls.count - 1
    }
    let answer = await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        let early = state.withLock { state -> Bool in
          if state.cancelledEarly.contains(index) { return true }
          state.continuations[index] = (name, continuation)
          state.snapshot.held.insert(name)
          return false
        }
        if early { continuation.resume(returning: .failure(.cancelled)) }
        notify()
      }
    } onCancel: {
      let held = state.withLock { state -> CheckedContinuation<Answer, Never>? in
        state.snapshot.cancelled.append(name)
        guard let held = state.continuations.removeValue(forKey: index) else {
          state.cancelledEarly.insert(index)
          return nil
        }
        state.refreshHeld()
        return held.continuation
      }
      held?.resume(returning: .failure(.cancelled))
      notify()
    }
    return try answer.get()
  }

  var snapshot: Snapshot { state.withLock { $0.snapshot } }

  /// Answers every held call for the URL whose last path component is `name`.
  func release(_ name: String, with answer: Answer) {
    let ready = state.withLock { state in
      let indices = state.continuations.filter { $0.value.name == name }.map(\.key)
      let ready = indices.compactMap { state.continuations.removeValue(forKey: $0)?.continuation }
      state.refreshHeld()
      return ready
    }
    for continuation in ready { continuation.resume(returning: answer) }
    notify()
  }

  /// Answers `name` with the test image of that name.
  func release(_ name: String) {
    release(name, with: .success(TestImages.response(for: name)))
  }

  /// Answers every held call with its test image.
  func releaseAll() {
    for name in snapshot.held { release(name) }
  }

  /// Returns once `predicate` holds, or the task is cancelled (the suite's time limit): a
  /// failing test fails instead of hanging.
  func wait(until predicate: @escaping @Sendable (Snapshot) -> Bool) async {
    let id = state.withLock { state in
      state.nextWaiter += 1
      return state.nextWaiter
    }
    await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        let now = state.withLock { state -> Bool in
          if predicate(state.snapshot) || Task.isCancelled { return true }
          state.waiters[id] = (predicate, continuation)
          return false
        }
        if now { continuation.resume() }
      }
    } onCancel: {
      state.withLock { $0.waiters.removeValue(forKey: id) }?.go.resume()
    }
  }

  private func notify() {
    let ready = state.withLock { state in
      let snapshot = state.snapshot
      let ids = state.waiters.filter { $0.value.predicate(snapshot) }.map(\.key)
      return ids.compactMap { state.waiters.removeValue(forKey: $0)?.go }
    }
    for continuation in ready { continuation.resume() }
  }
}
