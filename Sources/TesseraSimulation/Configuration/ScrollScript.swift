import TesseraUtilities

/// What the simulated user does. Every action but `wait` takes effect in one frame (or, for
/// `dragSlowly` and `fling`, a run of frames); physics keep running between actions.
public enum ScrollAction: Sendable, Equatable {
  /// Hands off for a while: a fling coasts, a still screen stays still.
  case wait(milliseconds: Double)
  /// Sets the scroll offset at once (a jump; no delegate scroll-end event).
  case jump(toOffset: Double)
  /// A finger moves the content by `units` this frame (begins a drag if none is going on).
  case drag(by: Double)
  /// The finger lifts with `velocity` (units per ms): above the minimum the content coasts
  /// and decelerates, otherwise the scroll ends here.
  case release(velocity: Double)
  /// A slow, steady drag at `unitsPerMillisecond` for `milliseconds`, then a lift at rest.
  case dragSlowly(unitsPerMillisecond: Double, milliseconds: Double)
  /// A swipe: three frames of dragging at `unitsPerMillisecond`, then a lift at that speed.
  case fling(unitsPerMillisecond: Double)
  /// The feed reloads with `newItems` items added at the top (pull to refresh).
  case refresh(newItems: Int)
}

/// One frame's input, after the script is unrolled into frames.
enum FrameInput: Sendable, Equatable {
  case beginDrag
  case drag(Double)
  case endDrag(velocity: Double)
  case jump(Double)
  case refresh(newItems: Int)
}

extension ScrollAction {
  /// The user of `tessera bench scroll`: a first look, a slow read, flings of several
  /// strengths with stops to look, reversals, a refresh half-way, rapid repeated flings and
  /// a slow drag back. Velocities and pauses vary with the seed (±20 %), the shape does not.
  /// About 30 s of virtual time.
  public static func standardScript(seed: UInt64) -> [ScrollAction] {
    var random = SplitMix64(seed: seed, 0x5C21_9700)
    func jitter(_ value: Double) -> Double { value * random.uniform(0.8...1.2) }
    var script: [ScrollAction] = [
      .wait(milliseconds: 1_500),
      .dragSlowly(unitsPerMillisecond: jitter(0.02), milliseconds: jitter(2_500)),
      .wait(milliseconds: jitter(1_200)),
      .fling(unitsPerMillisecond: jitter(0.5)),
      .wait(milliseconds: jitter(1_200)),
      .fling(unitsPerMillisecond: jitter(0.9)),
      .wait(milliseconds: jitter(900)),
      .fling(unitsPerMillisecond: jitter(1.2)),
      .wait(milliseconds: jitter(2_500)),
      .fling(unitsPerMillisecond: -jitter(0.8)),
      .wait(milliseconds: jitter(700)),
      .fling(unitsPerMillisecond: jitter(0.7)),
      .wait(milliseconds: jitter(1_800)),
      .dragSlowly(unitsPerMillisecond: jitter(0.03), milliseconds: jitter(1_500)),
      .refresh(newItems: 24),
      .wait(milliseconds: jitter(1_500)),
    ]
    for _ in 0..<3 {
      script.append(.fling(unitsPerMillisecond: jitter(1.0)))
      script.append(.wait(milliseconds: jitter(450)))
    }
    script += [
      .wait(milliseconds: jitter(2_000)),
      .fling(unitsPerMillisecond: -jitter(1.2)),
      .wait(milliseconds: jitter(2_000)),
      .dragSlowly(unitsPerMillisecond: -jitter(0.02), milliseconds: jitter(1_500)),
      .wait(milliseconds: 2_000),
    ]
    return script
  }

  /// Items the script adds at the top, in all.
  static func newItems(in script: [ScrollAction]) -> Int {
    script.reduce(0) { total, action in
      if case .refresh(let count) = action { return total + max(0, count) }
      return total
    }
  }

  /// Frames one scripted action may last: a day at 60 fps, far beyond any real script.
  static let maximumFramesPerAction = 60 * 60 * 60 * 24

  /// The script as frames: the inputs of each frame, in order. O(frames).
  static func frames(of script: [ScrollAction], frameMilliseconds: Double) -> [[FrameInput]] {
    func count(_ milliseconds: Double) -> Int {
      Int(clamping: milliseconds / frameMilliseconds, to: 0...maximumFramesPerAction)
    }
    var frames: [[FrameInput]] = []
    for action in script {
      switch action {
      case .wait(let milliseconds):
        frames += Array(repeating: [], count: count(milliseconds))
      case .jump(let offset):
        frames.append([.jump(offset)])
      case .drag(let units):
        frames.append([.drag(units)])
      case .release(let velocity):
        frames.append([.endDrag(velocity: velocity)])
      case .dragSlowly(let speed, let milliseconds):
        let steps = max(1, count(milliseconds))
        frames.append([.beginDrag, .drag(speed * frameMilliseconds)])
        for _ in 1..<steps { frames.append([.drag(speed * frameMilliseconds)]) }
        frames.append([.endDrag(velocity: 0)])
      case .fling(let speed):
        frames.append([.beginDrag, .drag(speed * frameMilliseconds)])
        frames.append([.drag(speed * frameMilliseconds)])
        frames.append([.drag(speed * frameMilliseconds), .endDrag(velocity: speed)])
      case .refresh(let newItems):
        frames.append([.refresh(newItems: newItems)])
      }
    }
    return frames
  }
}
