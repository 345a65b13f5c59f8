/// What a video container's header says about the clip: how long it plays and when it was
/// recorded, each only when the container states it within the bounds below.
///
/// - Complexity: O(1) space; every operation O(1).
package struct VideoFacts: Equatable, Sendable {
  /// Seconds the clip plays, within `durations`, in whole hundredths (`duration(seconds:)`).
  package var duration: Double?
  /// When recording began: seconds since 1970-01-01 00:00:00 UTC, within `createdRange`.
  package var created: Int64?

  package init(duration: Double? = nil, created: Int64? = nil) {
    self.duration = duration
    self.created = created
  }

  /// Longest duration kept: a container claiming more is clamped to it. No camera writes a
  /// clip of 100 days into one file; a forged length must not print as years.
  package static let maxDuration: Double = 100 * 86_400

  /// Creation times kept: 1970-01-01 (exclusive: the zero some writers leave is no date)
  /// until 2100-01-01. Anything else is a clock that was never set, or forged.
  package static let createdRange: ClosedRange<Int64> = 1...4_102_444_799

  /// `seconds` as a duration kept: nil for NaN, infinities, zero and less; more than
  /// `maxDuration` clamped to it; in whole hundredths, at least one, so a clip of a few
  /// milliseconds still has a length and the catalog stores it in 32 bits exactly.
  package static func duration(seconds: Double) -> Double? {
    guard seconds.isFinite, seconds > 0 else { return nil }
    let hundredths = (seconds.clamped(to: 0...maxDuration) * 100).rounded()
    return max(1, hundredths) / 100
  }

  /// `seconds` since 1970 as a creation time kept, nil outside `createdRange`.
  package static func created(since1970 seconds: Int64) -> Int64? {
    createdRange.contains(seconds) ? seconds : nil
  }

  /// Fills what `self` lacks from `other` (a later window of the same file).
  package mutating func merge(_ other: VideoFacts) {
    duration = duration ?? other.duration
    created = created ?? other.created
  }

  package var isComplete: Bool { duration != nil && created != nil }
}

/// Where one container walk over a window of a video file ended: the facts found, and where
/// to read on when what is wanted may lie further on.
///
/// - Complexity: O(1) space.
package struct VideoScan: Equatable, Sendable {
  package var facts = VideoFacts()
  /// File offset of the next box or element header to walk (at the level
  /// `VideoContainer.scan` documents), nil when the walk needs no further read.
  package var next: Int?

  package init(facts: VideoFacts = VideoFacts(), next: Int? = nil) {
    self.facts = facts
    self.next = next
  }
}
