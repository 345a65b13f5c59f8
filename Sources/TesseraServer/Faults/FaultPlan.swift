import Foundation
import TesseraUtilities

/// Which misbehaviours the server injects, and how often. Every decision is a pure function of
/// (seed, request, attempt), so a run is reproducible: see `decide(seed:request:attempt:)`.
public struct FaultPlan: Equatable, Sendable, CustomStringConvertible {
  /// Extra time before the answer starts.
  public enum Latency: Equatable, Sendable {
    case none
    case fixed(Duration)
    /// Uniform between the bounds.
    case uniform(Duration, Duration)
    /// Log-normal around `median`: most answers near it, a few far slower (capped at
    /// `ServerLimits.maxLongTailDelay`, 60 s).
    case longTailed(median: Duration, sigma: Double)
  }

  /// How a failed request fails.
  public enum Failure: String, CaseIterable, Sendable {
    case serverError = "500"
    case notFound = "404"
    /// Headers and part of the body are sent, then the connection is closed.
    case droppedConnection = "drop"
  }

  /// Which routes the faults apply to.
  public struct Targets: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static let feed = Targets(rawValue: 1)
    public static let users = Targets(rawValue: 2)
    public static let images = Targets(rawValue: 4)
    public static let all: Targets = [.feed, .users, .images]
  }

  public var latency: Latency
  /// Bytes per second shared by all faulted answers; nil for unlimited.
  public var bandwidth: Int?
  /// Fraction (0…1) of requests that fail, each with one of `failures`, chosen evenly.
  public var failureRate: Double
  public var failures: [Failure]
  /// Fraction of bodies with a span of bytes overwritten.
  public var corruptRate: Double
  /// Fraction of bodies cut short (sent complete, with a matching Content-Length).
  public var truncateRate: Double
  /// Fraction of answers labelled `text/html` whatever they hold.
  public var wrongContentTypeRate: Double
  /// Fraction of requests that never get an answer (until the server stops).
  public var hangRate: Double
  public var targets: Targets

  public init(
    latency: Latency = .none, bandwidth: Int? = nil, failureRate: Double = 0,
    failures: [Failure] = Failure.allCases, corruptRate: Double = 0, truncateRate: Double = 0,
    wrongContentTypeRate: Double = 0, hangRate: Double = 0, targets: Targets = .all
  ) {
    self.latency = latency
    self.bandwidth = bandwidth
    self.failureRate = failureRate
    self.failures = failures
    self.corruptRate = corruptRate
    self.truncateRate = truncateRate
    self.wrongContentTypeRate = wrongContentTypeRate
    self.hangRate = hangRate
    self.targets = targets
  }

  /// No faults at all.
  public static let none = FaultPlan()

  public var isNone: Bool { self == .none }

  public var description: String {
    var parts: [String] = []
    if latency != .none { parts.append("latency \(latency)") }
    if let bandwidth { parts.append("bandwidth \(bandwidth) B/s") }
    if failureRate > 0 {
      parts.append("failures \(failureRate) (\(failures.map(\.rawValue).joined(separator: ",")))")
    }
    if corruptRate > 0 { parts.append("corrupt \(corruptRate)") }
    if truncateRate > 0 { parts.append("truncate \(truncateRate)") }
    if wrongContentTypeRate > 0 { parts.append("wrong type \(wrongContentTypeRate)") }
    if hangRate > 0 { parts.append("hang \(hangRate)") }
    return parts.isEmpty ? "no faults" : parts.joined(separator: ", ")
  }
}

/// What happens to one request.
public struct FaultDecision: Equatable, Sendable {
  public var delay: Duration = .zero
  public var hang = false
  public var failure: FaultPlan.Failure?
  public var corrupt = false
  public var truncate = false
  public var wrongContentType = false
  /// Seeds where and how a body is corrupted or cut.
  var bodySeed: UInt64 = 0

  public static let clean = FaultDecision()
}

extension FaultPlan {
  /// The decision for the `attempt`-th request (0-based) of `request` (method, path and
  /// query) under `seed`. Every roll is drawn whatever the rates, in a fixed order, so
  /// changing one rate never reshuffles the others.
  public func decide(seed: UInt64, request: String, attempt: Int) -> FaultDecision {
    var random = SplitMix64(
      seed: seed, StableHash.of(request), UInt64(bitPattern: Int64(attempt)))
    var decision = FaultDecision()
    decision.delay = delay(&random)
    let hangRoll = random.unit()
    let failureRoll = random.unit()
    let failureChoice = random.next()
    let corruptRoll = random.unit()
    let truncateRoll = random.unit()
    let typeRoll = random.unit()
    decision.bodySeed = random.next()
    decision.hang = hangRoll < hangRate
    if failureRoll < failureRate, !failures.isEmpty {
      decision.failure = failures[Int(failureChoice % UInt64(failures.count))]
    }
    decision.corrupt = corruptRoll < corruptRate
    decision.truncate = truncateRoll < truncateRate
    decision.wrongContentType = typeRoll < wrongContentTypeRate
    return decision
  }

  /// This request's extra latency. Whatever the plan holds (it may be built in code, not
  /// parsed), durations are clamped into 0…`ServerLimits.maxLatency` and the long tail's
  /// arithmetic runs on clamped Doubles, so no `Duration` operation can overflow.
  private func delay(_ random: inout SplitMix64) -> Duration {
    let first = random.unit()
    let second = random.unit()
    switch latency {
    case .none:
      return .zero
    case .fixed(let duration):
      return Self.clamped(duration)
    case .uniform(let low, let high):
      let low = Self.clamped(low)
      let high = max(low, Self.clamped(high))
      return low + (high - low) * first
    case .longTailed(let median, let sigma):
      // Box–Muller: a standard normal from two uniforms.
      let normal = (-2 * log(max(first, 1e-12))).squareRoot() * cos(2 * .pi * second)
      let spread = sigma.clamped(to: ServerLimits.longTailSpreads, nan: 0)
      let cap = Self.seconds(ServerLimits.maxLongTailDelay)
      let seconds = Self.seconds(Self.clamped(median)) * exp(spread * normal)
      return .seconds(seconds.clamped(to: 0...cap))
    }
  }

  private static func clamped(_ duration: Duration) -> Duration {
    min(max(duration, .zero), ServerLimits.maxLatency)
  }

  private static func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
  }
}
