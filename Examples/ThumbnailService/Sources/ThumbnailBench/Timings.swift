/// Per-request times of one contender, and what they add up to.
struct Timings {
  let name: String
  var milliseconds: [Double] = []
  var wall = 0.0

  var perSecond: Double { wall > 0 ? Double(milliseconds.count) / wall : 0 }

  /// The nearest-rank `fraction` percentile (0.5, 0.99). O(n log n).
  func percentile(_ fraction: Double) -> Double {
    let sorted = milliseconds.sorted()
    guard !sorted.isEmpty else { return 0 }
    let rank = Int((fraction * Double(sorted.count)).rounded(.up))
    return sorted[min(max(rank, 1), sorted.count) - 1]
  }

  var line: String {
    func text(_ value: Double) -> String { String(format: "%.1f", value) }
    return "\(name): \(text(perSecond)) thumbnails/s, p50 \(text(percentile(0.5))) ms, "
      + "p99 \(text(percentile(0.99))) ms"
  }
}
