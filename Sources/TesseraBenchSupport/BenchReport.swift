import Foundation
import TesseraUtilities

/// Wall-clock samples of one measured operation, in nanoseconds.
///
/// Percentiles sort a copy: O(n log n) per query, fine for the sample counts benchmarks take.
package struct Samples {
  package private(set) var nanoseconds: [Double] = []

  package init() {}

  package mutating func append(_ value: Double) { nanoseconds.append(value) }

  /// Times `body` once and records it.
  @discardableResult
  package mutating func measure<T>(_ body: () throws -> T) rethrows -> T {
    let start = ContinuousClock.now
    let result = try body()
    append((ContinuousClock.now - start).nanoseconds)
    return result
  }

  package var count: Int { nanoseconds.count }
  package var median: Double { percentile(0.5) }
  package var p99: Double { percentile(0.99) }
  package var total: Double { nanoseconds.reduce(0, +) }

  package func percentile(_ p: Double) -> Double {
    guard !nanoseconds.isEmpty else { return .nan }
    return nanoseconds.sorted().percentileOfSorted(p) ?? .nan
  }
}

extension Duration {
  /// This duration in nanoseconds, as a Double.
  package var nanoseconds: Double {
    let (seconds, attoseconds) = components
    return Double(seconds) * 1e9 + Double(attoseconds) / 1e9
  }
}

/// One named figure of a benchmark. Names are stable (documented in docs/BENCHMARKS.md) so
/// scripts can track them across runs.
package struct BenchFigure: Encodable {
  package let name: String
  package let value: Double
  package let unit: String
}

/// The figures of one benchmark run, printed as a table or as one JSON object.
package struct BenchReport {
  package let benchmark: String
  package private(set) var figures: [BenchFigure] = []
  package private(set) var notes: [String] = []
  /// Markdown tables printed instead of the list of figures (the JSON keeps every figure).
  package private(set) var tables: [String] = []

  package init(benchmark: String) { self.benchmark = benchmark }

  package mutating func add(_ name: String, _ value: Double, _ unit: String) {
    figures.append(BenchFigure(name: name, value: value, unit: unit))
  }

  /// Records `ours / baseline` as a figure named `name`; below 1 means we are faster.
  package mutating func ratio(_ name: String, ours: Double, baseline: Double) {
    add(name, baseline == 0 ? .nan : ours / baseline, "x")
  }

  package mutating func note(_ text: String) { notes.append(text) }

  /// Shows `markdown` in the table output in place of the figure list.
  package mutating func addTable(_ markdown: String) { tables.append(markdown) }

  /// Every figure and note of `reports`, names prefixed with their benchmark
  /// (`layout.list_frame_median_us`): one report, one JSON object, for `tessera bench`.
  package static func merged(_ name: String, _ reports: [BenchReport]) -> BenchReport {
    var all = BenchReport(benchmark: name)
    for report in reports {
      for figure in report.figures {
        all.add(report.benchmark + "." + figure.name, figure.value, figure.unit)
      }
      for note in report.notes { all.note(report.benchmark + ": " + note) }
    }
    return all
  }

  /// The value of the figure named `name`, if present.
  package func value(_ name: String) -> Double? { figures.first { $0.name == name }?.value }

  package var table: String {
    let width = max(8, figures.map(\.name.count).max() ?? 8)
    var lines = ["## \(benchmark)", ""]
    if !tables.isEmpty {
      lines.append(tables.joined(separator: "\n\n"))
      if !notes.isEmpty {
        lines.append("")
        lines.append(contentsOf: notes.map { "- " + $0 })
      }
      return lines.joined(separator: "\n")
    }
    lines.append(
      "| " + "figure".padding(toLength: width, withPad: " ", startingAt: 0) + " | value | unit |")
    lines.append("|" + String(repeating: "-", count: width + 2) + "|------:|------|")
    for figure in figures {
      lines.append(
        "| " + figure.name.padding(toLength: width, withPad: " ", startingAt: 0) + " | "
          + Self.format(figure.value) + " | " + figure.unit + " |")
    }
    if !notes.isEmpty {
      lines.append("")
      lines.append(contentsOf: notes.map { "- " + $0 })
    }
    return lines.joined(separator: "\n")
  }

  package static func format(_ value: Double) -> String {
    if value.isNaN { return "n/a" }
    if value == value.rounded() && abs(value) < 1e15 { return String(Int64(value)) }
    if abs(value) >= 100 { return String(format: "%.1f", value) }
    return String(format: "%.3f", value)
  }

  private struct JSONShape: Encodable {
    let benchmark: String
    let figures: [String: Double]
    let units: [String: String]
    let notes: [String]
  }

  package var json: String {
    var values: [String: Double] = [:]
    var units: [String: String] = [:]
    for figure in figures {
      values[figure.name] = figure.value.isFinite ? figure.value : -1
      units[figure.name] = figure.unit
    }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    let data =
      (try? encoder.encode(
        JSONShape(benchmark: benchmark, figures: values, units: units, notes: notes))) ?? Data()
    return String(decoding: data, as: UTF8.self)
  }

  package func print(json asJSON: Bool) {
    Swift.print(asJSON ? json : table)
  }
}
