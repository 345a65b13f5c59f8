/// The figures of one strategy on one layout. Names in `figures` are stable: scripts track
/// them (documented in docs/BENCHMARKS.md).
public struct SimulationResult: Sendable, Equatable, Codable, CustomStringConvertible {
  public var strategy: StrategyKind
  public var layout: LayoutKind
  /// Frames simulated.
  public var frames = 0
  /// Frames in which at least one visible cell showed another item's image.
  public var wrongFrames = 0
  /// Visible cells showing another item's image, summed over frames.
  public var wrongCellFrames = 0
  /// A visible item's picture replaced by something else while it stayed on screen.
  public var flashes = 0
  /// Stretches of continuous visibility of an item.
  public var displays = 0
  /// Per display: virtual ms on screen before its own image showed (or until it left).
  public var placeholderMedianMilliseconds = 0.0
  public var placeholderP95Milliseconds = 0.0
  /// Share of visible cell-frames not showing their own image.
  public var waitingShare = 0.0
  public var downloadsStarted = 0
  public var downloadsCompleted = 0
  public var downloadsFailed = 0
  public var downloadsCancelled = 0
  /// Downloads of bytes already received or being received on another connection.
  public var duplicateDownloads = 0
  public var bytesDownloaded = 0
  /// Bytes received for items that never appeared on screen.
  public var bytesNeverShown = 0
  /// Image requests made for cells, and how many the memory cache answered.
  public var imageRequests = 0
  public var memoryHits = 0
  /// The most decoded bitmap bytes alive at once (cache plus cells).
  public var peakDecodedBytes = 0
  /// Modelled main-thread decoding (0 for `tessera`, which decodes off the main thread).
  public var mainThreadDecodeMilliseconds = 0.0
  /// Cells the engine (or the seed's scroll-end trick) created.
  public var cellsCreated = 0
  /// Distinct items that appeared on screen.
  public var itemsShown = 0

  public init(strategy: StrategyKind, layout: LayoutKind) {
    self.strategy = strategy
    self.layout = layout
  }

  public var memoryHitRate: Double {
    imageRequests == 0 ? 0 : Double(memoryHits) / Double(imageRequests)
  }

  /// (name, value, unit) in a fixed order; names are stable.
  public var figures: [(name: String, value: Double, unit: String)] {
    [
      ("wrong_frames", Double(wrongFrames), "frames"),
      ("wrong_cell_frames", Double(wrongCellFrames), "cell-frames"),
      ("flashes", Double(flashes), "events"),
      ("placeholder_median_ms", placeholderMedianMilliseconds, "ms"),
      ("placeholder_p95_ms", placeholderP95Milliseconds, "ms"),
      ("waiting_share", waitingShare, "ratio"),
      ("downloads_started", Double(downloadsStarted), "downloads"),
      ("downloads_completed", Double(downloadsCompleted), "downloads"),
      ("downloads_failed", Double(downloadsFailed), "downloads"),
      ("downloads_cancelled", Double(downloadsCancelled), "downloads"),
      ("duplicate_downloads", Double(duplicateDownloads), "downloads"),
      ("bytes_downloaded", Double(bytesDownloaded), "bytes"),
      ("bytes_never_shown", Double(bytesNeverShown), "bytes"),
      ("image_requests", Double(imageRequests), "requests"),
      ("memory_hit_rate", memoryHitRate, "ratio"),
      ("peak_decoded_bytes", Double(peakDecodedBytes), "bytes"),
      ("main_thread_decode_ms", mainThreadDecodeMilliseconds, "ms"),
      ("frames", Double(frames), "frames"),
      ("displays", Double(displays), "displays"),
      ("items_shown", Double(itemsShown), "items"),
      ("cells_created", Double(cellsCreated), "cells"),
    ]
  }

  public var description: String {
    "\(layout.rawValue)/\(strategy.rawValue): wrong \(wrongFrames) frames, \(flashes) flashes, "
      + "wait p50 \(placeholderMedianMilliseconds) ms, \(downloadsStarted) downloads"
  }
}
