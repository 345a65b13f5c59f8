import Foundation

/// Every limit on a number that reaches the pipeline from outside (HTTP headers, files in the
/// disk cache, image headers, the configuration), in one place. Each such number is checked
/// or clamped against these before any arithmetic.
package enum ImageLimits {
  /// The widest or tallest image decoded, and the largest side of a target box (JPEG's own
  /// limit; libvips' is far larger).
  static let maxImageSide = 65_535

  /// The longest a stored response counts as fresh, whatever `max-age`, `Expires` or the
  /// configuration say: an hour, the rule for every duration from outside. Past it the entry is
  /// revalidated: a conditional request, and a 304 of a few bytes when nothing changed.
  static let maxFreshnessLifetime: TimeInterval = 3_600

  /// HTTP delta-seconds (`max-age`, `Age`) above this are taken as this: RFC 9111 §1.2.2's
  /// "greatest positive integer" a cache must be able to hold.
  static let maxDeltaSeconds = 2_147_483_648

  /// Seconds a request may go without progress, at most (and at least 1: Linux's URLSession
  /// reads a timeout under a second as none).
  package static let requestTimeout: ClosedRange<TimeInterval> = 1...3_600

  /// The deadline for one whole transfer, at least a millisecond and at most an hour
  /// (`ImagePipeline.Configuration.requestTimeout`, `DataRequest.timeout`).
  static let requestDeadline: ClosedRange<TimeInterval> = 0.001...3_600

  /// The longest an HTTP validator or date header the disk cache keeps (ETag, Last-Modified,
  /// Content-Type); longer ones are dropped, not stored.
  static let maxHeaderValueBytes = 1_024

  /// The largest metadata header a disk-cache file may declare. Real ones are a few hundred
  /// bytes; the length field itself could claim 4 GiB.
  static let maxDiskHeaderBytes = 64 << 10

  /// A temporary disk-cache file older than this was left by a writer that died: a live one
  /// renames its file within moments of creating it.
  static let staleTemporaryFileAge: TimeInterval = 600

  /// A file size `stat` reports for the disk-cache folder is taken as at most this (1 TiB)
  /// before it is added up, and sums saturate: a sparse or forged file cannot overflow them.
  static let maxCountedFileBytes = 1 << 40

  /// When the disk cache's folder is over its size limit, entries are evicted down to this
  /// fraction of it, so the next writes do not each pay for another folder scan.
  static let diskEvictionTarget = 0.9
}
