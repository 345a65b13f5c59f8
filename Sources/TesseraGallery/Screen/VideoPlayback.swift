import TesseraImages

/// A video playing in the detail view: its frame source, the frame shown, and the player's
/// clock. Time comes from the caller (the run loop's clock, a test's instants), so pausing,
/// seeking and a decoder that stalls are all tested without waiting.
///
/// The clock maps an instant to a position in the video: `origin` says which position was
/// shown at which instant; a pause keeps its position until resumed, when `origin` moves.
struct VideoPlayback {
  let itemID: String
  /// The file decoded, and where in it the video starts (a motion photo's MP4 follows its
  /// JPEG).
  let path: String
  let byteOffset: Int64
  let byteLength: Int64?
  /// A Live Photo's or motion photo's motion: once played, the still photo shows again.
  let isMotion: Bool
  /// The request whose placement ids the frames take theirs from.
  let request: ImageRequest
  let probe: VideoProbe
  /// Decoding from ``origin``'s position.
  private(set) var source: any VideoFrameSource
  /// The frame on screen, and how many were shown before it (each gets its own image id).
  private(set) var shown: VideoFrame?
  private(set) var shownCount = 0
  private(set) var origin: (position: Duration, instant: ContinuousClock.Instant)
  /// The latest instant the caller gave (a start, an advance, a resume): the picture on screen
  /// is the video at that instant, so the position said under it, a pause and a seek are taken
  /// from it, never from the wall clock (a test composed a second after its instants read
  /// "0:01", and a pause a second late paused a second on).
  private(set) var lastInstant: ContinuousClock.Instant
  /// The position a pause holds; nil while playing.
  private(set) var pausedAt: Duration?
  /// When the source last gave a frame (or started): a decoder silent longer than
  /// ``stallLimit`` while playing is stopped.
  private(set) var lastProgress: ContinuousClock.Instant
  /// Why it stopped, when it did not end well: shown in the status bar.
  private(set) var failure: String?
  /// Whether the end was drawn (once).
  private var endShown = false

  /// How long a playing video may go without a frame before it is stopped as stalled.
  static let stallLimit = Duration.seconds(10)

  init(
    itemID: String, path: String, byteOffset: Int64 = 0, byteLength: Int64? = nil,
    isMotion: Bool = false,
    request: ImageRequest, probe: VideoProbe, source: any VideoFrameSource,
    from position: Duration, at now: ContinuousClock.Instant
  ) {
    self.itemID = itemID
    self.path = path
    self.byteOffset = byteOffset
    self.byteLength = byteLength
    self.isMotion = isMotion
    self.request = request
    self.probe = probe
    self.source = source
    origin = (position, now)
    lastProgress = now
    lastInstant = now
  }

  /// Where the video is at ``lastInstant``: what the screen shows.
  var position: Duration { position(at: lastInstant) }

  /// Where in the video `now` is.
  func position(at now: ContinuousClock.Instant) -> Duration {
    if let pausedAt { return pausedAt }
    // Ended or failed, the clock stops at the last frame shown.
    if endShown || failure != nil { return shown?.time ?? origin.position }
    let position = origin.position + (now - origin.instant)
    guard let duration = probe.duration else { return position }
    return min(position, duration)
  }

  var isPaused: Bool { pausedAt != nil }
  /// The frames ended (all played, or failed): the last one stays.
  var hasEnded: Bool { source.end != nil || failure != nil }

  /// Takes the frame due at `now`: true when another frame is to be drawn. A decoder that
  /// has said nothing for ``stallLimit`` while playing is stopped, with a reason.
  mutating func advance(at now: ContinuousClock.Instant) -> Bool {
    guard failure == nil, !isPaused else { return false }
    lastInstant = max(lastInstant, now)
    if let frame = source.take(upTo: position(at: now)) {
      shown = frame
      shownCount += 1
      lastProgress = now
      return true
    }
    if let end = source.end, !endShown {
      // The last frame stays; the position line says it ended, or why it failed.
      endShown = true
      if case .failed(let reason) = end { failure = reason }
      return true
    }
    if source.end == nil, now - lastProgress >= Self.stallLimit {
      source.stop()
      failure = "the video stalled: no frame in \(Self.stallLimit.components.seconds) s"
      return true
    }
    return false
  }

  /// When the run loop must look again with no input: the next decoded frame's instant, or
  /// the stall deadline while it waits for one; nil while paused or ended.
  var due: ContinuousClock.Instant? {
    guard !isPaused, !hasEnded else { return nil }
    if let next = source.nextFrameTime {
      return origin.instant + max(.zero, next - origin.position)
    }
    return lastProgress + Self.stallLimit
  }

  /// Holds ``position``: the picture on screen is where it pauses.
  mutating func pause() {
    guard pausedAt == nil else { return }
    pausedAt = position
  }

  mutating func resume(at now: ContinuousClock.Instant) {
    guard let position = pausedAt else { return }
    pausedAt = nil
    origin = (position, now)
    lastProgress = now
    lastInstant = now
  }

  /// Plays from `position` with `source` (decoding from there), the old source stopped; a
  /// pause stays a pause, at the new position. The frame shown stays until the new one comes.
  mutating func restart(
    from position: Duration, with source: any VideoFrameSource, at now: ContinuousClock.Instant
  ) {
    self.source.stop()
    self.source = source
    origin = (position, now)
    if pausedAt != nil { pausedAt = position }
    lastProgress = now
    lastInstant = now
    failure = nil
    endShown = false
  }

  /// "▶ 0:03 / 0:12" or "⏸ …": what the detail view says under the picture (at ``position``).
  var positionText: String {
    let mark = failure != nil ? "✗" : isPaused ? "⏸" : source.end == .finished ? "■" : "▶"
    let at = DurationText.clock(position)
    guard let duration = probe.duration else { return "\(mark) \(at)" }
    return "\(mark) \(at) / \(DurationText.clock(duration))"
  }

  /// Stops decoding; the frame shown stays with the value until it goes.
  func stop() { source.stop() }
}
