import Foundation
import TesseraUtilities

/// How the simulated network treats one request: a time to first byte drawn from a
/// log-normal distribution with a heavier tail (stalls), a link whose bandwidth the
/// transfers in progress share equally, and failures. Every draw is a pure function of
/// (seed, URL, attempt), so the order in which requests reach the network never changes
/// a number.
public struct NetworkModel: Sendable, Equatable {
  /// Median time to first byte, ms.
  public var medianLatency: Double
  /// σ of the latency's logarithm; 0 makes every latency the median.
  public var latencySpread: Double
  /// Chance that a request stalls; a stall multiplies its latency by `stallFactor`.
  public var stallProbability: Double
  public var stallFactor: Double
  /// Bytes per ms shared by all transfers receiving at once; nil: bytes arrive instantly.
  public var bandwidth: Double?
  /// Chance that a request fails (at its first byte, with no body).
  public var failureRate: Double
  /// Connections per host: URLSession's limit for `naive` and `seed`, the pipeline's
  /// `maxConcurrentDownloads` for `tessera`.
  public var connectionsPerHost: Int

  public init(
    medianLatency: Double, latencySpread: Double = 0, stallProbability: Double = 0,
    stallFactor: Double = 1, bandwidth: Double? = nil, failureRate: Double = 0,
    connectionsPerHost: Int = 6
  ) {
    self.medianLatency = max(0, medianLatency)
    self.latencySpread = max(0, latencySpread)
    self.stallProbability = min(max(stallProbability, 0), 1)
    self.stallFactor = max(1, stallFactor)
    self.bandwidth = bandwidth.map { max(1e-6, $0) }
    self.failureRate = min(max(failureRate, 0), 1)
    self.connectionsPerHost = max(1, connectionsPerHost)
  }

  /// A mobile-ish link: 80 ms median to first byte (p95 ≈ 250 ms), 3 % of requests stalled
  /// 6×, 2 MB/s shared, 2 % failures, 6 connections.
  public static let standard = NetworkModel(
    medianLatency: 80, latencySpread: 0.7, stallProbability: 0.03, stallFactor: 6,
    bandwidth: 2_000, failureRate: 0.02, connectionsPerHost: 6)

  /// Every request takes exactly `latency` ms and succeeds; bytes arrive instantly.
  public static func fixed(latency: Double, connectionsPerHost: Int = 6) -> NetworkModel {
    NetworkModel(medianLatency: latency, connectionsPerHost: connectionsPerHost)
  }

  /// What happens to the `attempt`-th request (0-based) for `url`. O(1).
  func plan(url: String, attempt: Int, seed: UInt64) -> (latency: Double, fails: Bool) {
    var random = SplitMix64(seed: seed, StableHash.of(url), UInt64(attempt))
    var latency = medianLatency
    if latencySpread > 0 { latency *= exp(latencySpread * random.normal()) }
    if random.unit() < stallProbability { latency *= stallFactor }
    let fails = random.unit() < failureRate
    return (latency, fails)
  }
}
