import ArgumentParser
import Foundation
import TesseraBenchSupport

/// `tessera bench` (or `tessera bench all`): every benchmark at a size that finishes in
/// well under two minutes on two cores, then one summary (one JSON object with `--json`,
/// figures named `<benchmark>.<figure>`).
struct AllBench: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "all",
    abstract: "Run pipeline, layout, render and scroll at summary sizes; print one summary.")

  @Flag(help: "Print one JSON object instead of tables.") var json = false

  /// The sizes of the summary run (each subcommand's defaults are larger).
  static let pipelineImages = 200
  static let pipelineBatch = 3
  /// 200 images at 256 px (~190 KiB each, 38 MiB) overflow it.
  static let pipelineCacheMiB = 32
  static let layoutRows = 1_000_000
  static let layoutFrames = 20_000
  static let renderFrames = 60
  static let scrollItems = 10_000

  func run() async throws {
    let clock = ContinuousClock()
    var reports: [BenchReport] = []
    var seconds: [String: Double] = [:]
    func timed<T>(_ name: String, _ body: () async throws -> T) async rethrows -> T {
      let start = clock.now
      defer { seconds[name] = (clock.now - start).nanoseconds / 1e9 }
      return try await body()
    }
    reports.append(
      try await timed("pipeline") {
        try await PipelineBenchmark(
          images: Self.pipelineImages, batch: Self.pipelineBatch, cacheMiB: Self.pipelineCacheMiB
        ).run()
      })
    reports.append(
      try await timed("layout") {
        try await LayoutBenchmark(
          rows: Self.layoutRows, frames: Self.layoutFrames, withBaseline: true
        ).run()
      })
    reports.append(
      try await timed("render") {
        try RenderBenchmark(frames: Self.renderFrames, chafa: "/usr/bin/chafa").run()
      })
    reports.append(
      try await timed("scroll") {
        try await ScrollBenchmark(items: Self.scrollItems, seed: 1).run().report
      })
    if json {
      print(BenchReport.merged("all", reports).json)
      return
    }
    print(Self.summary(reports, seconds: seconds))
    for report in reports {
      print("")
      report.print(json: false)
    }
  }

  /// The figures a person looks at first, one line each.
  static let headline: [(name: String, meaning: String)] = [
    ("layout.list_median_ratio", "list frame time vs linear offsets (median)"),
    ("layout.list_p99_ratio", "list frame time vs linear offsets (p99)"),
    ("pipeline.memory_hit_vs_dictionary", "memory-cache hit vs locked dictionary"),
    ("pipeline.decode_vs_vipsthumbnail", "decode + downsample vs vipsthumbnail"),
    ("pipeline.rss_growth_vs_cache_limit", "peak RSS growth vs memory-cache limit"),
    ("render.blocks.scroll1.bytes_vs_chafa", "half-blocks, one-row scroll: bytes vs chafa"),
    ("render.sixel.full.time_vs_chafa", "sixel full screen: time vs chafa"),
    ("render.kitty.scroll1.bytes_vs_chafa", "kitty, one-row scroll: bytes vs chafa"),
    ("scroll.grid.naive.wrong_frames", "grid, naive: frames with a wrong image"),
    ("scroll.grid.seed.wrong_frames", "grid, seed: frames with a wrong image"),
    ("scroll.grid.tessera.wrong_frames", "grid, tessera: frames with a wrong image"),
    ("scroll.grid.seed.placeholder_p95_ms", "grid, seed: placeholder p95 (virtual ms)"),
    ("scroll.grid.tessera.placeholder_p95_ms", "grid, tessera: placeholder p95 (virtual ms)"),
    ("scroll.grid.seed.bytes_downloaded", "grid, seed: bytes downloaded"),
    ("scroll.grid.tessera.bytes_downloaded", "grid, tessera: bytes downloaded"),
    ("scroll.list.seed.duplicate_downloads", "list, seed: duplicate downloads"),
    ("scroll.list.tessera.duplicate_downloads", "list, tessera: duplicate downloads"),
  ]

  static func summary(_ reports: [BenchReport], seconds: [String: Double]) -> String {
    let merged = BenchReport.merged("all", reports)
    var lines = ["# tessera bench", "", "| figure | value | meaning |", "|---|---:|---|"]
    for (name, meaning) in headline {
      guard let value = merged.value(name) else { continue }
      lines.append("| \(name) | \(BenchReport.format(value)) | \(meaning) |")
    }
    let times = reports.map {
      "\($0.benchmark) \(String(format: "%.1f", seconds[$0.benchmark] ?? 0)) s"
    }
    lines.append("")
    lines.append(
      "Ratios below 1 mean Tessera is faster or smaller. Wall time: "
        + times.joined(separator: ", ") + ".")
    return lines.joined(separator: "\n")
  }
}
