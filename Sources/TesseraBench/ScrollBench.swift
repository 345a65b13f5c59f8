import ArgumentParser
import Foundation
import TesseraBenchSupport
import TesseraSimulation

/// `tessera bench scroll`: the seeds' reuse race, measured on a virtual clock.
struct ScrollBench: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "scroll",
    abstract: "The seeds' reuse race on a virtual clock: naive vs seed vs tessera.",
    discussion: """
      A scripted user scrolls a grid and a list of N items on the real collection engine; a \
      seeded network delivers the feed server's real images. Same seed, same numbers.
      """)

  @Flag(help: "Print one JSON object instead of tables.") var json = false
  @Option(help: "Items in the feed.") var items = 10_000
  @Option(help: "Seed of the network and of the user's script.") var seed: UInt64 = 1
  @Option(help: "Write a bar chart of the key figures to this SVG file.") var svg: String?

  func validate() throws {
    guard (1...10_000_000).contains(items) else {
      throw ValidationError("--items must be between 1 and 10,000,000")
    }
  }

  func run() async throws {
    let outcome = try await ScrollBenchmark(items: items, seed: seed).run()
    if let svg {
      let url = URL(fileURLWithPath: svg)
      do {
        try Data(ScrollChart.svg(outcome.results, items: items, seed: seed).utf8).write(to: url)
      } catch {
        throw ValidationError("could not write the chart to \(svg): \(error.localizedDescription)")
      }
    }
    outcome.report.print(json: json)
  }
}

/// Runs every strategy on every layout with one seed and turns the results into a report:
/// figures `<layout>.<strategy>.<figure>` (see `SimulationResult.figures`), a comparison
/// table per layout, and notes saying what is modelled.
@MainActor
struct ScrollBenchmark {
  let items: Int
  let seed: UInt64

  func run() async throws -> (report: BenchReport, results: [SimulationResult]) {
    let library = SimulatedPhotoLibrary()
    var results: [SimulationResult] = []
    for layout in LayoutKind.allCases {
      for strategy in StrategyKind.allCases {
        let configuration = SimulationConfiguration(layout: layout, items: items, seed: seed)
        results.append(
          try await ScrollSimulator.run(configuration, strategy: strategy, library: library))
      }
    }
    var report = BenchReport(benchmark: "scroll")
    for result in results {
      for figure in result.figures {
        report.add(
          "\(result.layout.rawValue).\(result.strategy.rawValue).\(figure.name)", figure.value,
          figure.unit)
      }
    }
    for layout in LayoutKind.allCases {
      report.addTable(Self.table(layout, results.filter { $0.layout == layout }))
    }
    let standard = SimulationConfiguration(layout: .grid, items: items, seed: seed)
    let frames = results.first?.frames ?? 0
    report.note(
      "\(items) items, seed \(seed), \(frames) frames at 60 Hz (\(String(format: "%.1f", Double(frames) / 60)) s "
        + "of virtual time), viewport \(standard.viewportWidth)x\(standard.viewportHeight) cells "
        + "of \(standard.cellPixelWidth)x\(standard.cellPixelHeight) px; grid of "
        + "\(standard.gridColumns) columns, list rows \(standard.listRowHeights.lowerBound)-"
        + "\(standard.listRowHeights.upperBound) cells")
    report.note(
      "script: look, slow drag, flings of several strengths with stops, reversals, a refresh "
        + "(24 new items, reloadData) half-way, rapid flings, a slow drag back")
    report.note(
      "network: 80 ms median to first byte (log-normal, sigma 0.7), 3% stalls x6, 2 MB/s "
        + "shared, 2% failures, 6 connections; bytes are the feed server's generated photos")
    report.note(
      "naive/seed: URLSession (FIFO, 6 connections, no cancellation) and the textbook fix's "
        + "image manager (dictionary of 20 + 1 images); decoding modelled at full size on the "
        + "main thread at first draw, 8 ms per megapixel")
    report.note(
      "tessera: the real ImagePipeline (libvips decoding at the tile's size, 32 MiB memory "
        + "cache, no disk cache) through ImageSlot, prefetching 2 screens ahead, 1 behind")
    return (report, results)
  }

  /// One Markdown table: a row per figure, a column per strategy.
  static func table(_ layout: LayoutKind, _ results: [SimulationResult]) -> String {
    guard let first = results.first else { return "" }
    var lines = [
      "### \(layout.rawValue)", "",
      "| figure | " + results.map(\.strategy.rawValue).joined(separator: " | ") + " | unit |",
      "|---|" + results.map { _ in "---:|" }.joined() + "---|",
    ]
    for (index, figure) in first.figures.enumerated() {
      let values = results.map { BenchReport.format($0.figures[index].value) }
      lines.append(
        "| \(figure.name) | " + values.joined(separator: " | ") + " | \(figure.unit) |")
    }
    return lines.joined(separator: "\n")
  }
}
