/// Lets a test on the main actor wait until a condition over main-actor state holds, woken
/// by the callbacks that change that state (no sleeping, no polling).
@MainActor
final class MainActorSignal {
  private var waiters: [(condition: () -> Bool, go: CheckedContinuation<Void, Never>)] = []

  /// Re-checks every waiting condition; call it from the callbacks that change state.
  func check() {
    var still: [(condition: () -> Bool, go: CheckedContinuation<Void, Never>)] = []
    for waiter in waiters {
      if waiter.condition() { waiter.go.resume() } else { still.append(waiter) }
    }
    waiters = still
  }

  /// Returns once `condition` holds.
  func wait(until condition: @escaping () -> Bool) async {
    if condition() { return }
    await withCheckedContinuation { waiters.append((condition, $0)) }
  }
}
