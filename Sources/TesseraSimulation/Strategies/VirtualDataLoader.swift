import Foundation
import TesseraImages
import TesseraUtilities

/// The pipeline's data loader in the simulation: every call is recorded and held until the
/// simulator answers it at its virtual arrival time.
///
/// A call whose download the pipeline cancels is not answered at once but at the
/// simulator's next settle (`answerCancellations`): answering it lets the pipeline free the
/// connection and start another download, which must not happen on another thread while
/// the simulator is in the middle of a frame's layout. It is answered with an empty 200
/// rather than `.cancelled`: the pipeline ignores answers to abandoned downloads either way
/// but counts a 200 in `downloadsFinished`, which is how the simulator can tell, from
/// outside, that the pipeline has processed the cancellation.
/// O(1) per call; O(calls) memory.
final class VirtualDataLoader: DataLoading {
  typealias Answer = Result<DataResponse, ImagePipelineError>

  struct Call: Sendable {
    let index: Int
    let url: URL
  }

  private struct State {
    var calls: [Call] = []
    var unclaimed: [Int] = []
    var cancelled: [Int] = []
    var cancelRequests: [Int] = []
    var held: [Int: CheckedContinuation<Answer, Never>] = [:]
    var early: [Int: Answer] = [:]
    var answered: Set<Int> = []

    mutating func requestCancel(_ index: Int) {
      guard !answered.contains(index), !cancelRequests.contains(index) else { return }
      cancelRequests.append(index)
    }
  }

  private let state = Locked(State())

  static let cancelledAnswer: Answer = .success(
    DataResponse(statusCode: 200, headers: ["content-type": "image/jpeg"], data: Data()))

  func loadData(for request: DataRequest) async throws(ImagePipelineError) -> DataResponse {
    let index = state.withLock { state -> Int in
      let index = state.calls.count
      state.calls.append(Call(index: index, url: request.url))
      state.unclaimed.append(index)
      // Cancelled before it got here: its cancellation handler would run at once.
      if Task.isCancelled { state.requestCancel(index) }
      return index
    }
    let answer = await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        let now = state.withLock { state -> Answer? in
          if let answer = state.early.removeValue(forKey: index) { return answer }
          state.held[index] = continuation
          return nil
        }
        if let now { continuation.resume(returning: now) }
      }
    } onCancel: {
      self.state.withLock { $0.requestCancel(index) }
    }
    return try answer.get()
  }

  /// Answers held call `index` (once; later answers are ignored).
  func release(_ index: Int, with answer: Answer) {
    let continuation = state.withLock { state -> CheckedContinuation<Answer, Never>? in
      guard state.answered.insert(index).inserted else { return nil }
      if let held = state.held.removeValue(forKey: index) { return held }
      state.early[index] = answer
      return nil
    }
    continuation?.resume(returning: answer)
  }

  /// Answers the calls whose downloads were cancelled and are waiting here; a call
  /// cancelled before it reached its wait is answered by a later call of this.
  func answerCancellations() {
    let ready = state.withLock { state -> [CheckedContinuation<Answer, Never>] in
      var ready: [CheckedContinuation<Answer, Never>] = []
      state.cancelRequests.removeAll { index in
        guard let held = state.held.removeValue(forKey: index) else { return false }
        state.answered.insert(index)
        state.cancelled.append(index)
        ready.append(held)
        return true
      }
      return ready
    }
    for continuation in ready { continuation.resume(returning: Self.cancelledAnswer) }
  }

  var callCount: Int { state.withLock { $0.calls.count } }

  /// Calls not handed out before, and calls cancelled since the last time asked.
  func takeNews() -> (calls: [Call], cancelled: [Int]) {
    state.withLock { state in
      defer {
        state.unclaimed.removeAll()
        state.cancelled.removeAll()
      }
      return (state.unclaimed.map { state.calls[$0] }, state.cancelled)
    }
  }
}

/// Completions the pipeline delivers on its own threads, kept until the simulator applies
/// them on the main actor in the order the loads were started. Also counts prefetch
/// completions, so the simulator can tell when every completion owed has been delivered.
/// O(1) per delivery; draining sorts: O(k log k).
final class CompletionInbox: Sendable {
  typealias Delivery = (
    sequence: Int, result: Result<SimImage, any Error>,
    handler: @MainActor @Sendable (Result<SimImage, any Error>) -> Void
  )

  private struct State {
    var pending: [Delivery] = []
    var received = 0
  }

  private let state = Locked(State())

  func deliver(_ delivery: Delivery) {
    state.withLock {
      $0.pending.append(delivery)
      $0.received += 1
    }
  }

  func countPrefetchCompletion() { state.withLock { $0.received += 1 } }

  var received: Int { state.withLock { $0.received } }

  @MainActor
  func drain() {
    let ready = state.withLock { state in
      defer { state.pending.removeAll() }
      return state.pending.sorted { $0.sequence < $1.sequence }
    }
    for delivery in ready { delivery.handler(delivery.result) }
  }
}
