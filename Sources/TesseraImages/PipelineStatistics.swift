/// A snapshot of what a pipeline has done since it was made. A value: read it, keep it,
/// compare two of them.
public struct PipelineStatistics: Sendable, Hashable, CustomStringConvertible {
  /// Image and prefetch tasks that entered the pipeline's queues (memory hits do not).
  public var tasksStarted = 0
  /// Tasks that got their completion: success, failure or cancellation.
  public var tasksCompleted = 0
  public var tasksInFlight: Int { tasksStarted - tasksCompleted }

  public var downloadsStarted = 0
  public var downloadsFinished = 0
  public var downloadsFailed = 0
  /// Downloads stopped because every subscriber cancelled.
  public var downloadsCancelled = 0
  public var bytesDownloaded = 0
  /// Stale disk entries revalidated by a 304, whose stored bytes were reused.
  public var notModifiedResponses = 0

  /// Tasks that joined identical in-flight work instead of starting their own.
  public var coalescedJoins = 0
  /// Decodes (another size of the same URL) that reused an in-flight download.
  public var sharedDownloads = 0

  public var memoryHits = 0
  public var memoryMisses = 0
  public var diskHits = 0
  public var diskMisses = 0

  public var decodes = 0
  public var decodeFailures = 0
  public var decodeTime: Duration = .zero

  public init() {}

  public var averageDecodeTime: Duration { decodes == 0 ? .zero : decodeTime / decodes }

  public var description: String {
    "tasks \(tasksStarted)/\(tasksCompleted), downloads \(downloadsStarted) started "
      + "\(downloadsFinished) finished \(downloadsFailed) failed \(downloadsCancelled) cancelled "
      + "(\(bytesDownloaded) B, \(notModifiedResponses) not modified), joins \(coalescedJoins), "
      + "shared \(sharedDownloads), memory \(memoryHits)/\(memoryMisses), "
      + "disk \(diskHits)/\(diskMisses), decodes \(decodes) (\(decodeFailures) failed)"
  }
}
