import Foundation
import TesseraImages
import TesseraTestSupport

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

    mutating func refreshHeld() {
      snapshot.held = Set(continuations.values.map(\.name))
    }
  }

  // `WaitableState` locks with `Locked` (NSLock, a pthread mutex ThreadSanitizer sees), not
  // Synchronization's `Mutex`: on Linux that locks with bare futex calls TSan cannot see, so
  // every access under it was reported as a race (13 reports in `make sanitize`, none real).
  private let state = WaitableState(State())

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
    await state.wait { predicate($0.snapshot) }
  }
}
