import TesseraImages
import TesseraTerminal

/// An animation playing in the detail view: which item's, since when, and the frame shown.
/// Time comes from the caller (the run loop's clock, a test's instants); the screen is drawn
/// only when the frame changes, and not at all once a counted loop has ended.
///
/// Where the terminal plays animations itself (kitty), the frames go to it once
/// (``terminalAnimation``) and the frame shown stays the first: the screen is drawn again
/// only at ``startRepeats``, so the terminal's start is repeated after it drew the image
/// (`KittyLayer.startRepeats` says why), and then never for the animation.
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
  /// The frames for a terminal that plays them itself; nil where the app draws each frame
  /// (or the animation is too large for the terminal to hold, ``ImageAnimation/maximumPixelBytes``).
  let terminalAnimation: ImageAnimation?
  /// When, after the start, a terminal playing the animation itself is drawn again.
  static let startRepeats: [Duration] = [.milliseconds(250), .milliseconds(1000)]

  init(
    itemID: String, animation: Animation, request: ImageRequest,
    start: ContinuousClock.Instant, terminalPlays: Bool = false
  ) {
    self.itemID = itemID
    self.animation = animation
    self.request = request
    self.start = start
    terminalAnimation = terminalPlays ? Self.terminalAnimation(of: animation) : nil
    if terminalAnimation != nil {
      due = start + Self.startRepeats[0]
      return
    }
    let first = animation.frame(at: .zero)
    frame = first.index
    due = first.remaining.map { start + $0 }
  }

  /// `animation` as the terminal takes it: bitmaps and whole milliseconds.
  private static func terminalAnimation(of animation: Animation) -> ImageAnimation? {
    let frames = animation.frames.compactMap {
      try? Bitmap(width: $0.width, height: $0.height, pixels: $0.pixels)
    }
    guard frames.count == animation.frames.count else { return nil }
    return ImageAnimation(
      frames: frames,
      gapsInMilliseconds: animation.delays.map { Int($0 / .milliseconds(1)) },
      loopCount: animation.loopCount)
  }

  /// Moves to the frame of `now`: true when it is another frame than the one shown (or,
  /// where the terminal plays it, a moment to repeat its start). A late call skips the
  /// frames it missed.
  mutating func advance(at now: ContinuousClock.Instant) -> Bool {
    guard let due, now >= due else { return false }
    if terminalAnimation != nil {
      self.due = Self.startRepeats.map { start + $0 }.first { $0 > now }
      return true
    }
    let current = animation.frame(at: now - start)
    self.due = current.remaining.map { now + $0 }
    defer { frame = current.index }
    return current.index != frame
  }

  var image: TesseraImages.Image { animation.frames[frame] }
}
