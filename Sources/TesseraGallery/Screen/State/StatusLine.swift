/// What the status bar says beside the counts: a message after a key, until the next key
/// ("copied the path"), what the run loop measured of the link (``LinkStatus``), and the
/// running figures as last drawn (``RunningFigures``).
struct StatusLine {
  var message: String?
  /// nil locally.
  var link: String?
  var figures = RunningFigures()
}

/// The status bar's running figures (loaded, in flight, hits, bytes, the link, fps), which
/// change almost every frame while images arrive. Over a slow link each change is a cursor
/// move, a style and the digits written again, 60 times a second: over SSH they are let change
/// at most every ``interval``, as a person cannot read them faster, and the last figures are
/// drawn by ``due`` at the latest. What a key changes (a message, a prompt, the marks) is
/// outside them and never waits.
///
/// - Complexity: O(1) per frame beyond comparing the figures' text.
struct RunningFigures {
  /// How long figures stay before newer ones are drawn; nil: every frame (a local terminal).
  var interval: Duration?
  /// The frame's time, set by the run loop before it composes.
  var now = ContinuousClock.now
  private(set) var shown: String?
  private var shownAt = ContinuousClock.now
  /// Newer figures than those shown wait for a frame at ``due``.
  private(set) var behind = false

  init(interval: Duration? = nil) { self.interval = interval }

  /// The figures this frame shows: `current`, or those shown until ``interval`` has passed.
  mutating func show(_ current: String) -> String {
    guard let shown, let interval, now < shownAt + interval else {
      if shown != current {
        shown = current
        shownAt = now
      }
      behind = false
      return current
    }
    behind = shown != current
    return shown
  }

  /// When a frame must be drawn to show the figures that wait; nil when none wait.
  var due: ContinuousClock.Instant? {
    guard behind, let interval else { return nil }
    return shownAt + interval
  }
}
