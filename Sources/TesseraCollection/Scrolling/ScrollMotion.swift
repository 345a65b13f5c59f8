#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Scroll physics on an explicit clock: nothing here reads the wall clock; time advances only
/// when the owner calls `advance(by:)` with milliseconds.
///
/// - A fling decays like UIScrollView's: v(t) = v₀·rᵗ with r = 0.998 per ms, integrated in
///   closed form (x(t) = x₀ + v₀·(rᵗ − 1)/ln r), so the result does not depend on the frame
///   steps. It stops when less than half a unit of travel remains, or at an end (clamped).
/// - An animated scroll (wheel, keys, page, scroll-to-item) approaches its target the same
///   way at the "fast" rate 0.99 per ms (the remaining distance shrinks by 1 % per ms) and
///   snaps onto the target once within half a unit; further scrolls add to the target.
///
/// Every operation is O(1).
public struct ScrollMotion: Sendable, Equatable {
  /// UIScrollView.DecelerationRate.normal, per millisecond.
  public static let normalDecelerationRate = 0.998
  /// UIScrollView.DecelerationRate.fast, per millisecond.
  public static let fastDecelerationRate = 0.99
  /// A motion stops when less than this much travel remains.
  public static let restDistance = 0.5

  /// What the scroll position is doing.
  public enum Phase: Sendable, Equatable {
    /// At rest.
    case idle
    /// Following a finger (or a held mouse button).
    case dragging
    /// Coasting after a drag released with `velocity` (units per ms).
    case decelerating(velocity: Double)
    /// Approaching `target` (an animated scroll).
    case animating(target: Double)
  }

  /// What ended during an `advance`.
  public enum Ending: Sendable, Equatable {
    case deceleration
    case animation
  }

  /// The current phase.
  public private(set) var phase: Phase = .idle
  /// +1 when the last movement went towards the end, −1 towards the start.
  public private(set) var direction = 1
  /// How fast a fling slows down: the share of velocity kept per millisecond.
  public var decelerationRate = ScrollMotion.normalDecelerationRate

  /// At rest, moving towards the end, with the normal deceleration rate.
  public init() {}

  /// The slowest velocity (units per ms) that still travels `restDistance` before stopping.
  public var minimumVelocity: Double { Self.restDistance * -log(decelerationRate) }

  /// Whether a drag is in progress.
  public var isDragging: Bool { phase == .dragging }
  /// Whether a fling is coasting.
  public var isDecelerating: Bool {
    if case .decelerating = phase { return true }
    return false
  }
  /// Whether an animated scroll is under way.
  public var isAnimating: Bool {
    if case .animating = phase { return true }
    return false
  }

  mutating func noteMovement(_ delta: Double) {
    if delta > 0 { direction = 1 } else if delta < 0 { direction = -1 }
  }

  mutating func stop() { phase = .idle }

  mutating func beginDrag() { phase = .dragging }

  /// Ends a drag; returns whether a deceleration follows.
  mutating func endDrag(velocity: Double, offset: Double, bounds: ClosedRange<Double>) -> Bool {
    let blocked =
      (velocity > 0 && offset >= bounds.upperBound) || (velocity < 0 && offset <= bounds.lowerBound)
    guard velocity.isFinite, abs(velocity) >= minimumVelocity, !blocked else {
      phase = .idle
      return false
    }
    noteMovement(velocity)
    phase = .decelerating(velocity: velocity)
    return true
  }

  /// Starts (or extends) an animated scroll to `target`.
  mutating func animate(to target: Double, from offset: Double) {
    noteMovement(target - offset)
    phase = .animating(target: target)
  }

  /// The target of the running animation, if any.
  var animationTarget: Double? {
    if case .animating(let target) = phase { return target }
    return nil
  }

  /// Retargets a running animation (a scroll-to-item whose row was just measured, or content
  /// shifted by an anchor).
  mutating func retarget(_ target: Double) {
    if case .animating = phase { phase = .animating(target: target) }
  }

  /// Advances `offset` by `milliseconds`, clamped to `bounds`.
  mutating func advance(
    offset: inout Double, by milliseconds: Double, bounds: ClosedRange<Double>
  ) -> Ending? {
    guard milliseconds > 0, milliseconds.isFinite else { return nil }
    switch phase {
    case .idle, .dragging:
      return nil
    case .decelerating(let velocity):
      let logRate = log(decelerationRate)
      // Time until the velocity falls to the minimum: v₀·rᵗ = v_min.
      let restTime = log(minimumVelocity / abs(velocity)) / logRate
      let time = min(milliseconds, max(0, restTime))
      let decay = pow(decelerationRate, time)
      let next = offset + velocity * (decay - 1) / logRate
      offset = min(max(next, bounds.lowerBound), bounds.upperBound)
      if time >= restTime || next != offset {
        phase = .idle
        return .deceleration
      }
      phase = .decelerating(velocity: velocity * decay)
      return nil
    case .animating(let rawTarget):
      let target = min(max(rawTarget, bounds.lowerBound), bounds.upperBound)
      let remaining = (target - offset) * pow(Self.fastDecelerationRate, milliseconds)
      if abs(remaining) < Self.restDistance {
        offset = target
        phase = .idle
        return .animation
      }
      offset = target - remaining
      return nil
    }
  }
}
