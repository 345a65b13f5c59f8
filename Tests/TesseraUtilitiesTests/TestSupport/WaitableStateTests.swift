import TesseraTestSupport
import Testing

/// TesseraTestSupport's `WaitableState`, behind every test double's waits: a wait ends when a
/// change makes its predicate hold, or when its task is cancelled. Nothing sleeps: a test learns
/// that a wait has started from its predicate's first call, and a wait that never ended would
/// fail at the time limit.
@Suite(.timeLimit(.minutes(1))) struct WaitableStateTests {
  @Test func aWaitEndsWhenAnotherTasksChangeMakesItsPredicateHold() async {
    let state = WaitableState(0)
    let seen = WaitableState<[Int]>([])
    async let waited: Void = state.wait { value in
      seen.withLock { $0.append(value) }
      return value == 3
    }
    // Its first check ran in the critical section that registers it: no change comes between.
    await seen.wait { !$0.isEmpty }
    let changing = Task {
      for _ in 1...3 { state.withLock { $0 += 1 } }
    }
    await changing.value
    await waited
    state.withLock { $0 += 1 }
    // Checked at the start and after each change until it held, then never again: it ended.
    #expect(seen.withLock { $0 } == [0, 1, 2, 3])
  }

  @Test func aWaitWhosePredicateAlreadyHoldsEndsAtOnce() async {
    let state = WaitableState(5)
    let checks = WaitableState(0)
    await state.wait { value in
      checks.withLock { $0 += 1 }
      return value == 5
    }
    state.withLock { $0 = 6 }
    // Checked once and never registered: the change after it checked nothing.
    #expect(checks.withLock { $0 } == 1)
  }

  @Test func aWaitEndsWhenItsTaskIsCancelled() async {
    let state = WaitableState(0)
    let checks = WaitableState(0)
    let waiting = Task {
      await state.wait { _ in
        checks.withLock { $0 += 1 }
        return false
      }
      return Task.isCancelled
    }
    await checks.wait { $0 == 1 }
    waiting.cancel()
    #expect(await waiting.value)
    // It left the waiters: a change checks nothing (and resumes nothing a second time).
    state.withLock { $0 += 1 }
    #expect(checks.withLock { $0 } == 1)
  }

  @Test func aWaitInATaskCancelledBeforeItStartsEndsAtOnce() async {
    let state = WaitableState(0)
    let checks = WaitableState(0)
    let waiting = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      await state.wait { _ in
        checks.withLock { $0 += 1 }
        return false
      }
    }
    await waiting.value
    state.withLock { $0 += 1 }
    #expect(checks.withLock { $0 } == 0)
  }

  /// Waits, changes and cancellations all at once: every wait ends, each once (a checked
  /// continuation resumed twice stops the run).
  @Test func manyWaitsEndUnderChangesAndCancellations() async {
    let state = WaitableState(0)
    let waits = (0..<200).map { index in
      Task { await state.wait { $0 > index } }
    }
    let changing = Task {
      for _ in 0..<200 { state.withLock { $0 += 1 } }
    }
    for (index, wait) in waits.enumerated() where index.isMultiple(of: 2) { wait.cancel() }
    await changing.value
    for wait in waits { await wait.value }
    #expect(state.withLock { $0 } == 200)
  }
}
