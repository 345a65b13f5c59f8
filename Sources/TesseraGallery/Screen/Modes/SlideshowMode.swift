/// The slideshow's state (`s`, `--slideshow SECONDS`).
struct SlideshowMode {
  /// The running slideshow.
  var running: Slideshow?
  /// How long `s` shows each photo (`--slideshow SECONDS` sets it).
  var interval = Slideshow.defaultInterval
  /// `--slideshow`: the slideshow starts as soon as there is a photo to show.
  var startsWithItems = false
}

/// The slideshow's keys and tick: `s` starts or stops it, and the run loop's tick moves to the
/// next photo when one is due; leaving the detail view ends it.
extension GalleryScreen {
  /// `s`: a slideshow from the photo shown (or, over the items, the selected one), or its end.
  func toggleSlideshow(now: ContinuousClock.Instant = .now) {
    if modes.slideshow.running != nil {
      modes.slideshow.running = nil
      status.message = "slideshow stopped"
      return
    }
    startSlideshow(interval: modes.slideshow.interval, now: now)
  }

  /// Opens the selected photo and moves on every `interval`.
  func startSlideshow(interval: Duration, now: ContinuousClock.Instant = .now) {
    guard !feed.items.isEmpty else { return }
    if case .detail = overlay {} else { showSelectedInDetail() }
    modes.slideshow.running = Slideshow(interval: interval, from: now)
  }

  /// The run loop's tick for the slideshow: the next photo when it is due. True when it moved.
  @discardableResult
  func advanceSlideshow(at now: ContinuousClock.Instant) -> Bool {
    guard var show = modes.slideshow.running else { return false }
    guard case .detail = overlay else {
      modes.slideshow.running = nil
      return false
    }
    let due = show.advance(at: now)
    modes.slideshow.running = show
    if due {
      showNeighbour(1)
      needsDisplay = true
    }
    return due
  }
}
