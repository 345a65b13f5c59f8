import TesseraBenchSupport
import TesseraCollection
import TesseraUtilities

/// Hit-testing and keyboard moves on a waterfall of `rows` items of many shapes, against the
/// same on 1,000 items (the per-call cost should not grow with the count: O(log n + a row)),
/// and against a linear scan of every frame, the baseline a list UI without hit-testing writes.
/// Every answer is checked against the scan; a disagreement fails the benchmark.
extension LayoutBenchmark {
  static let pointingSamples = 2_000

  func addPointing(to report: inout BenchReport) throws {
    let small = try pointing(items: min(rows, 1_000), scan: true)
    let large = try pointing(items: rows, scan: true)
    report.add("hit_test_1k_us", small.hit.median / 1e3, "us")
    report.add("hit_test_us", large.hit.median / 1e3, "us")
    report.ratio("hit_test_growth_ratio", ours: large.hit.median, baseline: small.hit.median)
    report.add("hit_test_scan_us", large.scan.median / 1e3, "us")
    report.ratio("hit_test_vs_scan_ratio", ours: large.hit.median, baseline: large.scan.median)
    report.add("focus_down_1k_us", small.down.median / 1e3, "us")
    report.add("focus_down_us", large.down.median / 1e3, "us")
    report.ratio("focus_down_growth_ratio", ours: large.down.median, baseline: small.down.median)
    report.note(
      "pointing: a 6-column waterfall of \(rows) items (shapes 0.3…3) vs 1,000; "
        + "\(Self.pointingSamples) seeded points and moves; scan = every item's frame tested")
  }

  struct Pointing {
    var hit = Samples()
    var scan = Samples()
    var down = Samples()
  }

  private func pointing(items: Int, scan: Bool) throws -> Pointing {
    let layout = WaterfallLayout(columns: 6, spacing: 1)
    layout.heightPerWidthProvider = { path in
      // A fixed shape per item (Knuth's multiplicative hash), 0.3…3.
      0.3 + 2.7 * Double((UInt32(truncatingIfNeeded: path.item) &* 2_654_435_761) >> 22) / 1024
    }
    let source = BenchDataSource(count: items)
    let view = CollectionView(layout: layout, width: width, height: height)
    view.dataSource = source
    view.layoutIfNeeded()
    var random = SplitMix64(seed: 42)
    var result = Pointing()
    let frames =
      scan ? (0..<items).map { view.frameForItem(at: IndexPath(item: $0, section: 0)) } : []
    for _ in 0..<Self.pointingSamples {
      let x = Int.random(in: 0..<width, using: &random)
      let y = Int.random(in: 0..<view.contentHeight, using: &random)
      let hit = result.hit.measure { view.indexPathForItem(atX: x, y: y) }
      if scan {
        let scanned = result.scan.measure {
          frames.firstIndex { $0?.contains(x: x, y: y) == true }
        }
        guard hit?.item == scanned else {
          throw BenchFailure(
            "hit test at (\(x), \(y)) of \(items): \(String(describing: hit)), scan \(String(describing: scanned))"
          )
        }
      }
      let start = IndexPath(item: Int.random(in: 0..<items, using: &random), section: 0)
      try view.focusItem(at: start)
      let before = try frameOrFail(view, start)
      let moved = result.down.measure { view.moveFocus(.down, animated: false) }
      guard let moved, let after = view.frameForItem(at: moved),
        moved == start || after.y >= before.maxY
      else {
        throw BenchFailure(
          "focus down from \(start) of \(items) went to \(String(describing: moved))")
      }
    }
    return result
  }

  private func frameOrFail(_ view: CollectionView, _ path: IndexPath) throws -> Rect {
    guard let frame = view.frameForItem(at: path) else {
      throw BenchFailure("no frame for \(path)")
    }
    return frame
  }
}
