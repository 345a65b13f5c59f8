import Foundation
import TesseraImages

/// What the run did, as the lines it prints.
struct Summary {
  let outcomes: [Outcome]
  /// What loading the first photo at its feed size gave.
  let first: String
  let skipped: Int
  let bytes: Int
  let elapsed: Duration

  var failures: [(url: URL, error: ImagePipelineError)] {
    outcomes.compactMap { outcome in
      if case .failure(let error) = outcome.result { return (outcome.url, error) }
      return nil
    }
    .sorted { $0.url.absoluteString < $1.url.absoluteString }
  }

  var text: String {
    let loaded = outcomes.count - failures.count
    var origins: [String: Int] = [:]
    for outcome in outcomes {
      if case .success(let origin) = outcome.result { origins["\(origin)", default: 0] += 1 }
    }
    let from = origins.sorted { $0.key < $1.key }.map { "\($0.value) from the \($0.key)" }
    let seconds =
      Double(elapsed.components.seconds)
      + Double(elapsed.components.attoseconds) / 1e18
    var lines = [
      "thumbnails: \(outcomes.count)",
      "loaded: \(loaded)" + (from.isEmpty ? "" : " (\(from.joined(separator: ", ")))"),
      "failed: \(failures.count)",
    ]
    lines += failures.map { "  \($0.url.absoluteString): \($0.error)" }
    lines.append(first)
    if skipped > 0 { lines.append("feed entries skipped: \(skipped)") }
    lines.append("bytes downloaded: \(bytes)")
    lines.append("time: \(String(format: "%.2f", seconds)) s")
    return lines.joined(separator: "\n")
  }
}
