import TesseraTestSupport

/// Lets a test on the main actor wait until a condition over main-actor state holds, woken
/// by the callbacks that change that state (no sleeping, no polling). A wait ends early when
/// its task is cancelled (the suite's time limit), so a failing test fails instead of hanging.
@MainActor
final class MainActorSignal {
  /// How many times `check()` has run: a wait whose condition fails sleeps until it moves.
  private let checks = WaitableState(0)

  /// Re-checks every waiting condition; call it from the callbacks that change state.
  func check() {
    checks.withLock { $0 += 1 }
  }

  /// Returns once `condition` holds, or the task is cancelled.
  func wait(until condition: () -> Bool) async {
    while true {
      let seen = checks.withLock { $0 }
      if condition() || Task.isCancelled { return }
      await checks.wait { $0 != seen }
    }
  }
}
