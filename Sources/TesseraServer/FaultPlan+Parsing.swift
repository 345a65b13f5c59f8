/// Reading fault settings from command-line text, e.g. `--latency uniform:10ms-200ms`.
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
      guard let sigma, sigma >= 0, sigma <= 4 else {
        throw FaultParseError(description: "longtail spread must be a number in 0…4")
      }
      self = .longTailed(median: try parseDuration(first), sigma: sigma)
    default:
      throw FaultParseError(
        description: "unknown latency “\(text)”: use none, fixed:, uniform: or longtail:")
    }
  }
}

/// `250ms`, `1.5s`, `800us`, `2m`.
public func parseDuration(_ text: String) throws(FaultParseError) -> Duration {
  let units: [(String, Double)] = [("ms", 1e-3), ("us", 1e-6), ("s", 1), ("m", 60)]
  for (suffix, scale) in units where text.hasSuffix(suffix) {
    if let value = Double(text.dropLast(suffix.count)), value >= 0, value.isFinite {
      return .seconds(value * scale)
    }
    break
  }
  throw FaultParseError(description: "“\(text)” is not a duration such as 50ms or 1.5s")
}

/// Bytes per second: `64k`, `2M`, `1000`. k and M are powers of 1024.
public func parseByteRate(_ text: String) throws(FaultParseError) -> Int {
  let lower = text.lowercased()
  let scales: [(String, Double)] = [("k", 1024), ("m", 1024 * 1024), ("", 1)]
  for (suffix, scale) in scales where suffix.isEmpty || lower.hasSuffix(suffix) {
    let number = suffix.isEmpty ? lower : String(lower.dropLast())
    if let value = Double(number), value >= 1, value * scale < Double(Int.max) {
      return Int(value * scale)
    }
    break
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
  guard let value = Double(text), value >= 0, value <= 1 else {
    throw FaultParseError(description: "“\(text)” is not a rate between 0 and 1")
  }
  return value
}
