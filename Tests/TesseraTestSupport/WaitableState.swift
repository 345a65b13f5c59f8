import TesseraUtilities

/// A value guarded by a lock that tasks can wait on: `wait(until:)` returns once a predicate
/// over the value holds, woken by the `withLock` that made it hold (no polling, no sleeping).
/// A wait also returns as soon as its task is cancelled: Swift Testing enforces a time limit by
/// cancelling the test's task, so a test whose condition never comes fails at its limit (its
/// own expectations after the wait fail) instead of hanging the whole run.
///
/// Test doubles keep their state in one (a data loader's calls, a clock's sleepers) and offer
/// waits over it. Continuations of their own (a held call, a sleeper) live in the state and are
/// theirs to resume; this object resumes only its waits.
///
/// Predicates run under the lock, after every `withLock`: they must be quick and must not use
/// this object. The lock is `Locked`'s (NSLock, which ThreadSanitizer sees).
///
/// - Complexity: `withLock` is O(1) plus its body plus one predicate call per waiting task
///   (O(waiters)); `wait(until:)` one predicate call to start and O(1) to end.
package final class WaitableState<State>: Sendable {
  private struct Waiter {
    let predicate: @Sendable (State) -> Bool
    let continuation: CheckedContinuation<Void, Never>
  }

  private struct Storage {
    var state: State
    var waiters: [UInt64: Waiter] = [:]
    var nextID: UInt64 = 0

    /// Removes the waiters whose predicate holds now and hands back their continuations.
    mutating func takeSatisfiedWaiters() -> [CheckedContinuation<Void, Never>] {
      guard !waiters.isEmpty else { return [] }
      let state = state
      let ids = waiters.filter { $0.value.predicate(state) }.map(\.key)
      return ids.compactMap { waiters.removeValue(forKey: $0)?.continuation }
    }
  }

  private let storage: Locked<Storage>

  package init(_ state: State) {
    storage = Locked(Storage(state: state))
  }

  /// Runs `body` with exclusive access to the value, then ends every wait whose predicate now
  /// holds (resumed after the lock is released).
  package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
    var ready: [CheckedContinuation<Void, Never>] = []
    defer { for continuation in ready { continuation.resume() } }
    return try storage.withLock { storage in
      defer { ready = storage.takeSatisfiedWaiters() }
      return try body(&storage.state)
    }
  }

  /// Returns once `predicate` holds for the value, or at once when the calling task is
  /// cancelled (before or during the wait). The first check and the registration are one
  /// critical section, so a change between them cannot be missed.
  package func wait(until predicate: @escaping @Sendable (State) -> Bool) async {
    let id = storage.withLock { storage in
      storage.nextID += 1
      return storage.nextID
    }
    await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        let now = storage.withLock { storage -> Bool in
          // A task's cancelled flag is set before its cancellation handlers run, and the
          // handler takes this lock: a cancel whose handler found no waiter to end is seen here.
          if Task.isCancelled || predicate(storage.state) { return true }
          storage.waiters[id] = Waiter(predicate: predicate, continuation: continuation)
          return false
        }
        if now { continuation.resume() }
      }
    } onCancel: {
      storage.withLock { $0.waiters.removeValue(forKey: id) }?.continuation.resume()
    }
  }
}
