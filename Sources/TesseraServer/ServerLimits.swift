import Foundation
import TesseraUtilities

/// Every bound a number from outside the server passes before any arithmetic: query
/// parameters, request headers, fault settings from the command line, the configuration.
///
/// Foundation and TesseraUtilities only (no Hummingbird): the fault-plan parser is fuzzed on
/// its own with it.
public enum ServerLimits {
  /// Items per feed page when the query names none.
  public static let defaultPerPage = 20
  /// Largest `per_page` served.
  public static let maxPerPage = 500
  /// Photos a server may publish.
  public static let maxItems = 1_000_000
  /// Users a server may publish.
  public static let maxUsers = 100_000
  /// Memory for encoded images the configuration may ask for: 16 GiB.
  public static let maxImageCacheBytes = 16 << 30
  /// Ports a server may bind (0 picks any free one).
  public static let ports = 0...65_535
  /// Longest request target (path and query) served.
  public static let maxTargetLength = 2_048
  /// Largest request body accepted (the server takes none).
  public static let maxUploadSize = 4_096

  /// Images synthesised at once; further requests for other images wait their turn, so a
  /// burst of distinct originals cannot take every core from the feed and users routes.
  public static var generationConcurrency: Int {
    ProcessInfo.processInfo.activeProcessorCount.clamped(to: 1...maxGenerationConcurrency)
  }
  /// Most generations a configuration may allow at once.
  public static let maxGenerationConcurrency = 64

  /// Longest latency, as written in a fault setting: an hour.
  public static let maxLatency = Duration.seconds(3_600)
  /// The long-tailed latency's draws are capped here.
  public static let maxLongTailDelay = Duration.seconds(60)
  /// The long-tailed latency's spread (σ of the log-normal).
  public static let longTailSpreads: ClosedRange<Double> = 0...4
  /// Fault rates are probabilities.
  public static let rates: ClosedRange<Double> = 0...1
  /// Bandwidth a fault may set, in bytes per second: 1 B/s to 64 GiB/s.
  public static let bandwidths = 1...(64 << 30)
}
