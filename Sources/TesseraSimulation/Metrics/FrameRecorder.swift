import TesseraUtilities

/// What the user saw, frame by frame. A display is an item's stretch of continuous
/// visibility; within it the recorder notes when the item's own image first showed (its wait,
/// placeholder or wrong image until then), images of other items (wrong), and flashes: a
/// picture replaced by something else while the item stays on screen.
/// O(visible cells) per frame; O(displays) memory for the waits.
struct FrameRecorder {
  private struct Display {
    let start: Double
    var firstOwn: Double?
    var lastShown: Int?
  }

  private(set) var frames = 0
  private(set) var wrongFrames = 0
  private(set) var wrongCellFrames = 0
  private(set) var cellFrames = 0
  private(set) var waitingCellFrames = 0
  private(set) var flashes = 0
  private(set) var waits: [Double] = []
  private(set) var shown: Set<Int> = []
  private var displays: [Int: Display] = [:]

  /// One frame at `time`: each visible item with the item whose picture its cell shows.
  mutating func record(time: Double, visible: [(item: Int, showing: Int?)]) {
    frames += 1
    var wrongCells = 0
    var present: Set<Int> = []
    for (item, showing) in visible {
      present.insert(item)
      shown.insert(item)
      cellFrames += 1
      var display = displays[item] ?? Display(start: time)
      if let last = display.lastShown, showing != last { flashes += 1 }
      if showing == item {
        if display.firstOwn == nil { display.firstOwn = time }
      } else {
        waitingCellFrames += 1
        if showing != nil { wrongCells += 1 }
      }
      display.lastShown = showing
      displays[item] = display
    }
    if wrongCells > 0 { wrongFrames += 1 }
    wrongCellFrames += wrongCells
    let ended = displays.keys.filter { !present.contains($0) }.sorted()
    close(ended, at: time)
  }

  /// Ends every display at `time` (the end of the run).
  mutating func finish(at time: Double) {
    close(displays.keys.sorted(), at: time)
  }

  private mutating func close(_ items: [Int], at time: Double) {
    for item in items {
      guard let display = displays.removeValue(forKey: item) else { continue }
      waits.append((display.firstOwn ?? time) - display.start)
    }
  }

  /// The wait at percentile `p` (nearest rank), 0 without displays. O(n log n).
  func waitPercentile(_ p: Double) -> Double {
    guard !waits.isEmpty else { return 0 }
    return waits.sorted().percentileOfSorted(p) ?? 0
  }
}
