import TesseraUtilities

/// Reading fault settings from command-line text, e.g. `--latency uniform:10ms-200ms`.
///
/// Every number is validated against `ServerLimits` before it becomes a `Duration` or an
/// `Int`: durations within 0…1 h, rates within 0…1, bandwidths within 1 B/s…64 GiB/s, the
/// long-tail spread within 0…4. Anything else is a `FaultParseError` that says why.
public struct FaultParseError: Error, Equatable, CustomStringConvertible {
  public let description: String
}

extension FaultPlan.Latency {
  /// `none`, `fixed:50ms`, `uniform:10ms-200ms`, `longtail:80ms` or `longtail:80ms,1.5`.
  public init(parsing text: String) throws(FaultParseError) {
    let parts = text.split(separator: ":", maxSplits: 1).map(String.init)
    let kind = parts.first?.lowercased() ?? ""
    let argument = parts.count > 1 ? parts[1] : ""
    switch kind {
    case "none", "":
      self = .none
    case "fixed":
      self = .fixed(try parseDuration(argument))
    case "uniform":
      let bounds = argument.split(separator: "-").map(String.init)
      guard bounds.count == 2 else {
        throw FaultParseError(
          description: "uniform latency needs LOW-HIGH, e.g. uniform:10ms-200ms")
      }
      let low = try parseDuration(bounds[0])
      let high = try parseDuration(bounds[1])
      guard low <= high else {
        throw FaultParseError(description: "uniform latency: \(bounds[0]) is above \(bounds[1])")
      }
      self = .uniform(low, high)
    case "longtail", "long-tailed", "lognormal":
      let values = argument.split(separator: ",").map(String.init)
      guard let first = values.first else {
        throw FaultParseError(description: "longtail latency needs a median, e.g. longtail:80ms")
      }
      let sigma = values.count > 1 ? Double(values[1]) : 1.0
      guard let sigma, ServerLimits.longTailSpreads.contains(sigma) else {
        throw FaultParseError(description: "longtail spread must be a number in 0…4")
      }
      self = .longTailed(median: try parseDuration(first), sigma: sigma)
    default:
      throw FaultParseError(
        description: "unknown latency “\(text)”: use none, fixed:, uniform: or longtail:")
    }
  }
}

/// `250ms`, `1.5s`, `800us`, `2m`: at most `ServerLimits.maxLatency` (an hour).
public func parseDuration(_ text: String) throws(FaultParseError) -> Duration {
  let units: [(String, Double)] = [("ms", 1e-3), ("us", 1e-6), ("s", 1), ("m", 60)]
  let limit = Double(ServerLimits.maxLatency.components.seconds)
  for (suffix, scale) in units where text.hasSuffix(suffix) {
    guard let value = Double(text.dropLast(suffix.count)), value >= 0, value.isFinite else {
      break
    }
    // Compared before `Duration` sees it: `.seconds(1e300)` would trap.
    guard value * scale <= limit else {
      throw FaultParseError(description: "“\(text)” is longer than an hour")
    }
    return .seconds(value * scale)
  }
  throw FaultParseError(description: "“\(text)” is not a duration such as 50ms or 1.5s")
}

/// Bytes per second: `64k`, `2M`, `1000`. k and M are powers of 1024. Within
/// `ServerLimits.bandwidths` (1 B/s…64 GiB/s).
public func parseByteRate(_ text: String) throws(FaultParseError) -> Int {
  let lower = text.lowercased()
  let scales: [(String, Double)] = [("k", 1024), ("m", 1024 * 1024), ("", 1)]
  let range = ServerLimits.bandwidths
  for (suffix, scale) in scales where suffix.isEmpty || lower.hasSuffix(suffix) {
    let number = suffix.isEmpty ? lower : String(lower.dropLast())
    guard let value = Double(number), value.isFinite else { break }
    let rate = value * scale
    guard rate >= Double(range.lowerBound), rate <= Double(range.upperBound) else {
      throw FaultParseError(description: "“\(text)” is not a rate between 1 byte/s and 64G/s")
    }
    return Int(clamping: rate, to: range)
  }
  throw FaultParseError(description: "“\(text)” is not a rate in bytes per second such as 64k")
}

extension FaultPlan.Failure {
  /// `500,404,drop`.
  public static func parseList(_ text: String) throws(FaultParseError) -> [FaultPlan.Failure] {
    var kinds: [FaultPlan.Failure] = []
    for name in text.split(separator: ",") {
      guard let kind = FaultPlan.Failure(rawValue: String(name)) else {
        throw FaultParseError(description: "unknown failure “\(name)”: use 500, 404 or drop")
      }
      kinds.append(kind)
    }
    return kinds
  }
}

extension FaultPlan.Targets {
  /// `feed,users,images` or `all`.
  public init(parsing text: String) throws(FaultParseError) {
    var targets: FaultPlan.Targets = []
    for name in text.split(separator: ",") {
      switch name {
      case "feed": targets.insert(.feed)
      case "users": targets.insert(.users)
      case "images": targets.insert(.images)
      case "all": targets = .all
      default:
        throw FaultParseError(description: "unknown target “\(name)”: use feed, users, images, all")
      }
    }
    self = targets
  }
}

/// A probability: a number in 0…1.
public func parseRate(_ text: String) throws(FaultParseError) -> Double {
  guard let value = Double(text), ServerLimits.rates.contains(value) else {
    throw FaultParseError(description: "“\(text)” is not a rate between 0 and 1")
  }
  return value
}
