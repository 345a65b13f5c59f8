import TesseraUtilities

/// The live fault plan of a running server and the per-request attempt counters that make its
/// decisions reproducible: the n-th request for the same URL always gets the same decision,
/// whatever the order of other requests. O(1) per request; counters are bounded.
final class FaultInjector: Sendable {
  private struct State {
    var plan: FaultPlan
    var attempts: [String: Int] = [:]
  }

  let seed: UInt64
  private let state: Locked<State>
  /// Counters are forgotten past this many distinct requests, bounding memory.
  private static let maxTracked = 200_000

  init(plan: FaultPlan, seed: UInt64) {
    self.seed = seed
    state = Locked(State(plan: plan))
  }

  var plan: FaultPlan {
    get { state.withLock { $0.plan } }
    set { state.withLock { $0.plan = newValue } }
  }

  /// Replaces the plan and restarts the attempt counters, so a test that sets a plan sees the
  /// same decisions as a fresh server with that plan.
  func reset(to plan: FaultPlan) {
    state.withLock {
      $0.plan = plan
      $0.attempts = [:]
    }
  }

  /// The plan and this request's decision, or nil when the route is not targeted.
  func decide(_ target: FaultPlan.Targets, request: String) -> (FaultPlan, FaultDecision)? {
    state.withLock { state in
      guard !state.plan.isNone, state.plan.targets.contains(target) else { return nil }
      if state.attempts.count >= Self.maxTracked { state.attempts = [:] }
      let attempt = state.attempts[request, default: 0]
      state.attempts[request] = attempt + 1
      return (state.plan, state.plan.decide(seed: seed, request: request, attempt: attempt))
    }
  }
}

/// A link of limited bandwidth shared by every throttled answer: each chunk reserves its time
/// slot in arrival order (a token bucket without burst). O(1) per chunk.
actor BandwidthLimiter {
  private var nextFree = ContinuousClock.now

  /// How long to wait before sending `bytes` at `bytesPerSecond`.
  func reserve(_ bytes: Int, bytesPerSecond: Int) -> Duration {
    let now = ContinuousClock.now
    let start = max(now, nextFree)
    nextFree = start + .seconds(Double(bytes) / Double(max(1, bytesPerSecond)))
    return nextFree - now
  }
}
