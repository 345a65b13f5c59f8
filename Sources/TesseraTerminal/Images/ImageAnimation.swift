/// An animation a terminal can play by itself (kitty's animation protocol, see
/// ``TerminalRenderer/playsAnimations``): every frame, each the size of the placement's
/// bitmap, how long each shows and how many times the whole plays. The app sends it once;
/// the terminal runs it with no further bytes.
public struct ImageAnimation: Sendable {
  /// The frames in order; the first is the placement's bitmap.
  public let frames: [Bitmap]
  /// How long each frame shows, in milliseconds (1 ms to 10 minutes).
  public let gapsInMilliseconds: [Int]
  /// How many times the animation plays; 0 forever.
  public let loopCount: Int

  /// The longest a frame may show: kitty takes a 32-bit gap, a file may state anything.
  public static let longestGap = 600_000

  /// The most pixel bytes one animation may hold in the terminal: a third of what the kitty
  /// layer keeps uploaded, so an animation never evicts the grid's tiles wholesale. A larger
  /// one is drawn frame by frame by the app.
  public static let maximumPixelBytes = 64 << 20

  /// Frames (all of one size, at least two, ``maximumPixelBytes`` at most) with their gaps,
  /// clamped to 1...``longestGap`` (a missing gap is the shortest); nil when the frames do
  /// not make one the terminal should hold.
  public init?(frames: [Bitmap], gapsInMilliseconds: [Int], loopCount: Int) {
    guard frames.count >= 2, let first = frames.first,
      frames.allSatisfy({ $0.width == first.width && $0.height == first.height }),
      frames.reduce(0, { $0 + $1.pixels.count }) <= Self.maximumPixelBytes
    else { return nil }
    self.frames = frames
    self.gapsInMilliseconds = frames.indices.map { index in
      let gap = gapsInMilliseconds.indices.contains(index) ? gapsInMilliseconds[index] : 1
      return min(max(gap, 1), Self.longestGap)
    }
    // kitty's loop count is a 32-bit number, one more than the loops.
    self.loopCount = min(max(loopCount, 0), Int(Int32.max) - 1)
  }

  /// Bytes of pixels across all frames: what the terminal holds for it.
  var pixelBytes: Int { frames.reduce(0) { $0 + $1.pixels.count } }
}
