/// A snapshot of what a pipeline has done since it was made. A value: read it, keep it,
/// compare two of them.
public struct PipelineStatistics: Sendable, Hashable, CustomStringConvertible {
  /// Image and prefetch tasks that entered the pipeline's queues (memory hits do not).
  public var tasksStarted = 0
  /// Tasks that got their completion: success, failure or cancellation.
  public var tasksCompleted = 0
  /// Tasks started and not yet completed.
  public var tasksInFlight: Int { tasksStarted - tasksCompleted }

  /// Calls to the data loader (and local-folder reads).
  public var downloadsStarted = 0
  /// Downloads that returned bytes (a 304 included).
  public var downloadsFinished = 0
  /// Downloads that failed (a status, a limit, the network, the deadline).
  public var downloadsFailed = 0
  /// Downloads stopped because every subscriber cancelled.
  public var downloadsCancelled = 0
  /// Body bytes received.
  public var bytesDownloaded = 0
  /// Stale disk entries revalidated by a 304, whose stored bytes were reused.
  public var notModifiedResponses = 0

  /// Tasks that joined identical in-flight work instead of starting their own.
  public var coalescedJoins = 0
  /// Decodes (another size of the same URL) that reused an in-flight download.
  public var sharedDownloads = 0

  /// Memory-cache lookups that found their image (from the cache's own counters).
  public var memoryHits = 0
  /// Memory-cache lookups that did not.
  public var memoryMisses = 0
  /// Disk-cache reads whose entry was used (fresh, or any under `.onlyFromCache`).
  public var diskHits = 0
  /// Disk-cache reads that found nothing usable, or a stale entry to revalidate.
  public var diskMisses = 0

  /// Local-folder requests served from a freedesktop.org thumbnail (no original read).
  public var thumbnailHits = 0
  /// Thumbnails written into the freedesktop.org thumbnail folders.
  public var thumbnailsWritten = 0

  /// Images decoded.
  public var decodes = 0
  /// Decodes that failed or were refused.
  public var decodeFailures = 0
  /// Time spent in successful decodes, added up.
  public var decodeTime: Duration = .zero

  /// All counters at zero.
  public init() {}

  /// `decodeTime / decodes`; zero before the first decode.
  public var averageDecodeTime: Duration { decodes == 0 ? .zero : decodeTime / decodes }

  /// Every counter on one line.
  public var description: String {
    "tasks \(tasksStarted)/\(tasksCompleted), downloads \(downloadsStarted) started "
      + "\(downloadsFinished) finished \(downloadsFailed) failed \(downloadsCancelled) cancelled "
      + "(\(bytesDownloaded) B, \(notModifiedResponses) not modified), joins \(coalescedJoins), "
      + "shared \(sharedDownloads), memory \(memoryHits)/\(memoryMisses), "
      + "disk \(diskHits)/\(diskMisses), thumbnails \(thumbnailHits) read "
      + "\(thumbnailsWritten) written, decodes \(decodes) (\(decodeFailures) failed)"
  }
}
