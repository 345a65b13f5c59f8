import Testing

@testable import TesseraGallery

/// The status bar's running figures over SSH: new ones at most every interval, the newest
/// always drawn by the time it is due; locally every frame's.
@Suite struct RunningFiguresTests {
  @Test func overSSHFiguresChangeAtMostEveryIntervalAndTheLastIsDueAfterIt() {
    let start = ContinuousClock.now
    var figures = RunningFigures(interval: .milliseconds(250))
    figures.now = start
    #expect(figures.show("✓ 1 loaded") == "✓ 1 loaded")
    #expect(figures.due == nil)
    // Frames within the interval keep what is shown and say when the newest is due.
    for (milliseconds, current) in [(16, "✓ 2 loaded"), (100, "✓ 3 loaded"), (249, "✓ 4 loaded")] {
      figures.now = start + .milliseconds(milliseconds)
      #expect(figures.show(current) == "✓ 1 loaded", "at \(milliseconds) ms")
      #expect(figures.due == start + .milliseconds(250), "at \(milliseconds) ms")
    }
    // Back to what is shown: nothing waits.
    figures.now = start + .milliseconds(200)
    #expect(figures.show("✓ 1 loaded") == "✓ 1 loaded")
    #expect(figures.due == nil)
    figures.now = start + .milliseconds(250)
    #expect(figures.show("✓ 4 loaded") == "✓ 4 loaded")
    #expect(figures.due == nil)
    // The next change counts its interval from this one.
    figures.now = start + .milliseconds(400)
    #expect(figures.show("✓ 5 loaded") == "✓ 4 loaded")
    #expect(figures.due == start + .milliseconds(500))
  }

  @Test func aLocalTerminalSeesEveryFramesFigures() {
    var figures = RunningFigures()
    let start = ContinuousClock.now
    for (step, current) in ["30 fps", "31 fps", "32 fps", "31 fps"].enumerated() {
      figures.now = start + .milliseconds(16 * step)
      #expect(figures.show(current) == current)
      #expect(figures.due == nil)
    }
  }
}
