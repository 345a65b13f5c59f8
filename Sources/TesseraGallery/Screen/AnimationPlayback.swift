import TesseraImages

/// An animation playing in the detail view: which item's, since when, and the frame shown.
/// Time comes from the caller (the run loop's clock, a test's instants); the screen is drawn
/// only when the frame changes, and not at all once a counted loop has ended.
struct AnimationPlayback {
  let itemID: String
  let animation: Animation
  /// The request whose picture the frames replace: their placements' ids derive from it.
  let request: ImageRequest
  let start: ContinuousClock.Instant
  /// The frame shown now.
  private(set) var frame = 0
  /// When the next frame is due; nil once the animation has ended on its last frame.
  private(set) var due: ContinuousClock.Instant?

  init(
    itemID: String, animation: Animation, request: ImageRequest,
    start: ContinuousClock.Instant
  ) {
    self.itemID = itemID
    self.animation = animation
    self.request = request
    self.start = start
    let first = animation.frame(at: .zero)
    frame = first.index
    due = first.remaining.map { start + $0 }
  }

  /// Moves to the frame of `now`: true when it is another frame than the one shown. A late
  /// call skips the frames it missed.
  mutating func advance(at now: ContinuousClock.Instant) -> Bool {
    guard let due, now >= due else { return false }
    let current = animation.frame(at: now - start)
    self.due = current.remaining.map { now + $0 }
    defer { frame = current.index }
    return current.index != frame
  }

  var image: TesseraImages.Image { animation.frames[frame] }
}
