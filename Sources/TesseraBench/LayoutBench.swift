import ArgumentParser
import Foundation
import TesseraBenchSupport
import TesseraCollection

struct LayoutBench: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "layout",
    abstract: "Engine frame time on a million-row list and grid vs a linear-array baseline.")

  @Flag(help: "Print one JSON object instead of tables.") var json = false
  @Option(help: "Rows in the self-sizing list and items in the grid.") var rows = 1_000_000
  @Option(help: "Roughly how many frames the top-to-bottom trip takes.") var frames = 20_000
  @Flag(inversion: .prefixedNo, help: "Also run the linear-offsets baseline (skip it to profile).")
  var baseline = true

  func run() async throws {
    guard rows > 0, frames > 0 else {
      throw ValidationError("--rows and --frames must be positive")
    }
    let report = try await LayoutBenchmark(rows: rows, frames: frames, withBaseline: baseline).run()
    report.print(json: json)
  }
}

/// A terminal-sized viewport flung from the top to the bottom of a million rows at 120 Hz
/// frame steps: every frame is `tick(by:)` + `layoutIfNeeded()` (physics, layout query,
/// recycling, dequeue + configure of a trivial cell, self-sizing measurement, prefetch diff).
@MainActor
struct LayoutBenchmark {
  let rows: Int
  let frames: Int
  let withBaseline: Bool
  let width = 120
  let height = 40
  let frameMilliseconds = 1000.0 / 120

  func run() throws -> BenchReport {
    var report = BenchReport(benchmark: "layout")
    // Re-flung whenever the fling slows to 1/8 of its start: one fling lasts ln 8 / −ln 0.998
    // ≈ 1,039 ms (125 frames) and travels 7/8 · v₀ · 500 ms. Pick v₀ so the trip over
    // ~2.5 units per row takes about `frames` frames.
    let listDistance = Double(rows) * 2.5
    let velocity = max(0.5, listDistance * 125 / (437.5 * Double(frames)))

    let ours = runList(heights: FenwickRowHeights(), velocity: velocity)
    let baseline =
      withBaseline ? runList(heights: LinearOffsetRowHeights(), velocity: velocity) : Run()
    report.add("list_rows", Double(rows), "rows")
    report.add("list_frames", Double(ours.samples.count), "frames")
    report.add("list_reload_ms", ours.reloadNanoseconds / 1e6, "ms")
    report.add("list_frame_median_us", ours.samples.median / 1e3, "us")
    report.add("list_frame_p99_us", ours.samples.p99 / 1e3, "us")
    report.add("list_frame_max_us", ours.samples.percentile(1) / 1e3, "us")
    report.add("list_baseline_frame_median_us", baseline.samples.median / 1e3, "us")
    report.add("list_baseline_frame_p99_us", baseline.samples.p99 / 1e3, "us")
    report.ratio("list_median_ratio", ours: ours.samples.median, baseline: baseline.samples.median)
    report.ratio("list_p99_ratio", ours: ours.samples.p99, baseline: baseline.samples.p99)
    report.add("list_bytes_per_row", ours.bytesPerRow, "bytes")
    report.add("list_baseline_bytes_per_row", baseline.bytesPerRow, "bytes")
    report.add("list_cells_allocated", Double(ours.cellsAllocated), "cells")
    report.add("list_reached_bottom", ours.reachedBottom ? 1 : 0, "bool")

    let grid = runGrid(velocity: velocity)
    report.add("grid_items", Double(rows), "items")
    report.add("grid_frames", Double(grid.samples.count), "frames")
    report.add("grid_frame_median_us", grid.samples.median / 1e3, "us")
    report.add("grid_frame_p99_us", grid.samples.p99 / 1e3, "us")
    report.add("grid_cells_allocated", Double(grid.cellsAllocated), "cells")
    report.add("grid_reached_bottom", grid.reachedBottom ? 1 : 0, "bool")

    report.note(
      "viewport \(width)×\(height) units, frames of \(String(format: "%.3f", frameMilliseconds)) ms, "
        + "flings of \(String(format: "%.1f", velocity)) units/ms decelerating at 0.998/ms, re-flung at 1/8 speed"
    )
    report.note(
      "list: rows self-size to 1…4 units (estimate 2), so every row that enters is measured "
        + "and its height changes; baseline = the same engine with offsets in a plain array "
        + "rebuilt from the first changed row on the next read (TanStack Virtual's way)")
    report.note(
      "grid: 6 columns, spacing 1, height per width 0.5; frames are arithmetic, nothing per item")
    report.note("bytes per row: the list layout's own storage (heights, prefix sums, flags)")
    try addPointing(to: &report)
    return report
  }

  struct Run {
    var samples = Samples()
    var reloadNanoseconds = 0.0
    var bytesPerRow = 0.0
    var cellsAllocated = 0
    var reachedBottom = false
  }

  private func runList(heights: any RowHeightIndex, velocity: Double) -> Run {
    let layout = ListLayout(estimatedItemHeight: 2, heightIndex: heights)
    let source = BenchDataSource(count: rows)
    let view = CollectionView(layout: layout, width: width, height: height)
    view.dataSource = source
    var run = Run()
    let start = ContinuousClock.now
    view.layoutIfNeeded()
    run.reloadNanoseconds = (ContinuousClock.now - start).nanoseconds
    fling(view, velocity: velocity, into: &run)
    run.bytesPerRow = layout.bytesPerItem
    return run
  }

  private func runGrid(velocity: Double) -> Run {
    let layout = GridLayout(columns: .fixed(6), spacing: 1, heightPerWidth: 0.5)
    let source = BenchDataSource(count: rows)
    let view = CollectionView(layout: layout, width: width, height: height)
    view.dataSource = source
    view.layoutIfNeeded()
    var run = Run()
    fling(view, velocity: velocity, into: &run)
    return run
  }

  private func fling(_ view: CollectionView, velocity: Double, into run: inout Run) {
    let frameCap = frames * 4
    view.beginDrag()
    view.endDrag(velocity: velocity)
    for _ in 0..<frameCap {
      run.samples.measure {
        view.tick(by: frameMilliseconds)
        view.layoutIfNeeded()
      }
      if view.contentOffset >= view.maximumOffset {
        run.reachedBottom = true
        break
      }
      if case .decelerating(let current) = view.scrollPhase, current > velocity / 8 { continue }
      view.beginDrag()
      view.endDrag(velocity: velocity)
    }
    run.cellsAllocated = view.createdViewCount
  }
}

/// The trivial cell: an item number and the height it reports.
@MainActor
final class BenchCell: ReusableView {
  var item = 0
  var height = 1
  init() {}
  func preferredHeight(forWidth width: Int) -> Int? { height }
}

@MainActor
final class BenchDataSource: CollectionDataSource {
  let count: Int
  private(set) var prefetched = 0

  init(count: Int) { self.count = count }

  func collectionView(_ collectionView: CollectionView, numberOfItemsInSection section: Int) -> Int
  {
    count
  }

  func collectionView(
    _ collectionView: CollectionView, cellForItemAt indexPath: TesseraCollection.IndexPath
  )
    -> any ReusableView
  {
    let cell: BenchCell = collectionView.dequeueReusableCell(for: indexPath)
    cell.item = indexPath.item
    // A fixed pseudo-random height of 1…4 per row (Knuth's multiplicative hash).
    cell.height = 1 + Int((UInt32(truncatingIfNeeded: indexPath.item) &* 2_654_435_761) >> 30)
    return cell
  }

  func collectionView(
    _ collectionView: CollectionView, prefetchItemsAt indexPaths: [TesseraCollection.IndexPath]
  ) {
    prefetched += indexPaths.count
  }
}

/// The baseline: row offsets in a plain array, rebuilt from the first changed row to the end
/// on the next read after a change (how TanStack Virtual keeps its measurements). Reads are
/// O(1) (offset) and O(log n) (binary search); a change costs O(n − row) at the next read.
final class LinearOffsetRowHeights: RowHeightIndex {
  private var heights: [Int32] = []
  private var offsets: [Int] = [0]
  private var firstStale = Int.max

  func reset(heights newHeights: [Int32]) {
    heights = newHeights
    offsets = [Int](repeating: 0, count: heights.count + 1)
    firstStale = 0
    rebuildIfNeeded()
  }

  var count: Int { heights.count }

  func height(at row: Int) -> Int { Int(heights[row]) }

  func setHeight(_ height: Int, at row: Int) {
    let clamped = Int32(clamping: max(0, height))
    guard heights[row] != clamped else { return }
    heights[row] = clamped
    firstStale = min(firstStale, row)
  }

  /// A tight sweep over raw buffers, so the baseline pays for the O(n − row) work itself
  /// and not for exclusivity checks on every element.
  private func rebuildIfNeeded() {
    guard firstStale < heights.count else { return }
    let first = firstStale
    heights.withUnsafeBufferPointer { heights in
      offsets.withUnsafeMutableBufferPointer { offsets in
        var sum = offsets[first]
        for row in first..<heights.count {
          sum += Int(heights[row])
          offsets[row + 1] = sum
        }
      }
    }
    firstStale = Int.max
  }

  func offset(of row: Int) -> Int {
    rebuildIfNeeded()
    return offsets[min(row, heights.count)]
  }

  func row(containing y: Int) -> Int {
    rebuildIfNeeded()
    var low = 0
    var high = heights.count
    while low < high {
      let mid = (low + high) / 2
      if offsets[mid + 1] > y { high = mid } else { low = mid + 1 }
    }
    return low
  }

  var totalHeight: Int {
    rebuildIfNeeded()
    return offsets[heights.count]
  }

  var storageBytes: Int {
    heights.capacity * MemoryLayout<Int32>.stride + offsets.capacity * MemoryLayout<Int>.stride
  }
}
