/// A slideshow (`s`, `--slideshow SECONDS`): the detail view moves to the next photo every
/// `interval`, from the last photo back to the first, until `s` or Esc. Time comes from the
/// caller (the run loop's clock, a test's instants), so it is tested without waiting.
struct Slideshow: Equatable {
  /// Seconds a photo stays (`--slideshow`): 1…3600.
  static let intervals = GallerySlideshow.intervals
  static let defaultInterval = Duration.seconds(5)

  let interval: Duration
  /// When the next photo is due.
  private(set) var due: ContinuousClock.Instant

  init(interval: Duration, from now: ContinuousClock.Instant) {
    self.interval = interval
    due = now + interval
  }

  /// Whether the next photo is due at `now`; if so the one after is due an interval later
  /// (from `now`: a gallery that slept through several is not hurried to catch up).
  mutating func advance(at now: ContinuousClock.Instant) -> Bool {
    guard now >= due else { return false }
    due = now + interval
    return true
  }

  /// A photo shown by hand starts its full interval.
  mutating func restart(at now: ContinuousClock.Instant) { due = now + interval }
}

/// What the command line may ask of a slideshow.
package enum GallerySlideshow {
  package static let intervals: ClosedRange<Double> = 1...3600
}
