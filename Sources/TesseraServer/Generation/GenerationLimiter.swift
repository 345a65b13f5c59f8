import TesseraUtilities

/// An async semaphore: at most `limit` holders at once, the others suspended (never blocking a
/// thread) in arrival order. A waiter whose task is cancelled leaves the queue at once.
///
/// `acquire` and `release` are O(1) amortised (a FIFO of tickets in a dictionary plus an
/// order array compacted as it drains).
final class GenerationLimiter: Sendable {
  /// Who holds a slot and who waits; reported to `observer` after every change.
  struct Counts: Equatable, Sendable {
    var running: Int
    var waiting: Int
  }

  private struct State {
    var running = 0
    var nextTicket = 0
    var order: [Int] = []
    var head = 0
    var waiters: [Int: CheckedContinuation<Bool, Never>] = [:]

    var counts: Counts { Counts(running: running, waiting: waiters.count) }

    /// Drops the consumed prefix of `order` once it is most of the array.
    mutating func compact() {
      guard head > 32, head * 2 > order.count else { return }
      order.removeFirst(head)
      head = 0
    }
  }

  let limit: Int
  private let state = Locked(State())
  private let observer: (@Sendable (Counts) -> Void)?

  /// - Parameter observer: told the counts after every change, outside the lock (tests use it
  ///   to wait for "N running, M waiting" without sleeping).
  init(limit: Int, observer: (@Sendable (Counts) -> Void)? = nil) {
    self.limit = max(1, limit)
    self.observer = observer
  }

  var counts: Counts { state.withLock { $0.counts } }

  /// Runs `body` holding a slot; throws `CancellationError` when cancelled while waiting.
  func withSlot<Value: Sendable>(
    _ body: @Sendable () async throws -> Value
  ) async throws -> Value {
    try await acquire()
    defer { release() }
    return try await body()
  }

  /// Waits for a slot. A slot handed to a task that was cancelled meanwhile is passed on.
  func acquire() async throws {
    let ticket: Int? = state.withLock { state in
      if state.running < limit, state.waiters.isEmpty {
        state.running += 1
        return nil
      }
      state.nextTicket += 1
      return state.nextTicket
    }
    guard let ticket else {
      notify()
      return
    }
    let granted = await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        let cancelled = state.withLock { state -> Bool in
          if Task.isCancelled { return true }
          state.waiters[ticket] = continuation
          state.order.append(ticket)
          return false
        }
        if cancelled {
          continuation.resume(returning: false)
        } else {
          notify()
        }
      }
    } onCancel: {
      state.withLock { $0.waiters.removeValue(forKey: ticket) }?.resume(returning: false)
    }
    guard granted else {
      notify()
      throw CancellationError()
    }
  }

  /// Frees a slot: hands it to the longest waiter, if any.
  func release() {
    let next = state.withLock { state -> CheckedContinuation<Bool, Never>? in
      while state.head < state.order.count {
        let ticket = state.order[state.head]
        state.head += 1
        if let waiter = state.waiters.removeValue(forKey: ticket) {
          state.compact()
          return waiter  // the slot passes on: `running` stays
        }
      }
      state.compact()
      state.running -= 1
      return nil
    }
    next?.resume(returning: true)
    notify()
  }

  private func notify() {
    guard let observer else { return }
    observer(counts)
  }
}
