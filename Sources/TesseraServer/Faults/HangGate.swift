import TesseraUtilities

/// Where hanging answers wait: closed while the server runs, opened by `stop()`, so a hung
/// request never holds up shutdown. Waiting and opening are O(1) per waiter.
final class HangGate: Sendable {
  private struct State {
    var open = false
    var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
    var nextTicket = 0
  }

  private let state = Locked(State())

  /// Returns when the gate opens or the waiting task is cancelled.
  func wait() async {
    let ticket = state.withLock { state -> Int in
      state.nextTicket += 1
      return state.nextTicket
    }
    await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        let resumeNow = state.withLock { state -> Bool in
          if state.open || Task.isCancelled { return true }
          state.waiters[ticket] = continuation
          return false
        }
        if resumeNow { continuation.resume() }
      }
    } onCancel: {
      state.withLock { $0.waiters.removeValue(forKey: ticket) }?.resume()
    }
  }

  /// Closes the gate again, for a server that starts anew.
  func close() {
    state.withLock { $0.open = false }
  }

  func open() {
    let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
      state.open = true
      defer { state.waiters = [:] }
      return Array(state.waiters.values)
    }
    waiters.forEach { $0.resume() }
  }

  var waiting: Int { state.withLock { $0.waiters.count } }
}
