/// What the run loop waits on when nothing moves: input, a resize, an image or feed
/// completion. A signal that arrives while nobody waits is kept, so a wake-up is never lost
/// between the check and the wait.
@MainActor
final class Wakeup {
  private var signaled = false
  private var waiter: CheckedContinuation<Void, Never>?

  /// Wakes the waiter, or the next wait if nobody waits yet. O(1).
  func signal() {
    if let waiter {
      self.waiter = nil
      waiter.resume()
    } else {
      signaled = true
    }
  }

  /// Returns at the next signal (at once if one is pending) or when the task is cancelled.
  func wait() async {
    if signaled {
      signaled = false
      return
    }
    await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        if signaled || Task.isCancelled {
          signaled = false
          continuation.resume()
        } else {
          waiter = continuation
        }
      }
    } onCancel: {
      Task { @MainActor in self.signal() }
    }
  }

  /// Returns at the next signal or at `deadline`, whichever comes first (or when the task is
  /// cancelled): the loading spinner's next turn, unless the feed's first items come sooner.
  func wait(until deadline: ContinuousClock.Instant) async {
    let timer = Task { @MainActor [weak self] in
      guard (try? await ContinuousClock().sleep(until: deadline)) != nil else { return }
      self?.signal()
    }
    await wait()
    timer.cancel()
  }
}
