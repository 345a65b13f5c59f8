/// Lets a test on the main actor wait until a condition over main-actor state holds, woken
/// by the callbacks that change that state (no sleeping, no polling). A wait ends early when
/// its task is cancelled (the suite's time limit), so a failing test fails instead of hanging.
@MainActor
final class MainActorSignal {
  private struct Waiter {
    let condition: () -> Bool
    let go: CheckedContinuation<Void, Never>
  }

  private var waiters: [Int: Waiter] = [:]
  private var nextID = 0

  /// Re-checks every waiting condition; call it from the callbacks that change state.
  func check() {
    for (id, waiter) in waiters where waiter.condition() {
      waiters[id] = nil
      waiter.go.resume()
    }
  }

  /// Returns once `condition` holds, or the task is cancelled.
  func wait(until condition: @escaping () -> Bool) async {
    if condition() { return }
    nextID += 1
    let id = nextID
    await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        if Task.isCancelled {
          continuation.resume()
        } else {
          waiters[id] = Waiter(condition: condition, go: continuation)
        }
      }
    } onCancel: {
      Task { @MainActor in self.giveUp(id) }
    }
  }

  private func giveUp(_ id: Int) {
    waiters.removeValue(forKey: id)?.go.resume()
  }
}
