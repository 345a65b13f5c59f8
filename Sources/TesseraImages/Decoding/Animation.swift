/// An animation decoded for playing (an animated GIF or WebP): its frames, all of one size,
/// how long each shows, and how many times the whole plays. Time comes from the caller, so a
/// player is tested without waiting and draws only when a frame changes.
///
/// - Complexity: ``frame(at:)`` is O(log frames) (a binary search over the frames' start
///   times, computed once in O(frames) by the initializer).
public struct Animation: Sendable {
  /// The frames, in order, each the size of the first.
  public let frames: [Image]
  /// How long each frame shows: the file's delay, or ``defaultDelay`` where the file's is at
  /// most ``shortestDelay`` (as browsers play GIFs that ask for 0 or 10 ms).
  public let delays: [Duration]
  /// How many times the animation plays; 0 forever.
  public let loopCount: Int
  /// One play's length: the sum of ``delays``.
  public let length: Duration
  /// Where each frame starts within one play.
  private let starts: [Duration]

  /// A file's delay at or below this plays at ``defaultDelay``.
  public static let shortestDelay = Duration.milliseconds(10)
  /// What a frame that asks for ``shortestDelay`` or less shows for.
  public static let defaultDelay = Duration.milliseconds(100)

  /// An animation of `frames` (at least two, all of one size) with each frame's delay in
  /// milliseconds as the file states it (missing ones play at ``defaultDelay``).
  public init(
    frames: [Image], delaysInMilliseconds: [Int], loopCount: Int
  ) throws(ImagePipelineError) {
    guard frames.count >= 2, let size = frames.first?.size, frames.allSatisfy({ $0.size == size })
    else { throw .decodingFailed("an animation needs two or more frames of one size") }
    self.frames = frames
    delays = frames.indices.map { index in
      let stated = Duration.milliseconds(
        delaysInMilliseconds.indices.contains(index) ? max(0, delaysInMilliseconds[index]) : 0)
      return stated <= Self.shortestDelay ? Self.defaultDelay : stated
    }
    self.loopCount = max(0, loopCount)
    var starts: [Duration] = []
    var total = Duration.zero
    for delay in delays {
      starts.append(total)
      total += delay
    }
    self.starts = starts
    length = total
  }

  /// The frame to show `elapsed` after the animation started, and how long it stays (nil
  /// once the last loop ended: the last frame stays for good). A late caller gets the frame
  /// of its moment, so frames a slow link could not show are skipped, never queued.
  public func frame(at elapsed: Duration) -> (index: Int, remaining: Duration?) {
    let elapsed = max(.zero, elapsed)
    let plays = Int(clamping: Int64(elapsed / length))
    if loopCount > 0, plays >= loopCount { return (frames.count - 1, nil) }
    let within = elapsed - length * plays
    var low = 0
    var high = starts.count - 1
    while low < high {  // the last start at or before `within`
      let middle = (low + high + 1) / 2
      if starts[middle] <= within { low = middle } else { high = middle - 1 }
    }
    return (low, starts[low] + delays[low] - within)
  }
}
