import Testing

@testable import TesseraTerminal

/// The link meter on durations of the test's choosing (no clock, no sleeping).
@Suite struct OutputRateMeterTests {
  static let start = ContinuousClock.now

  @Test func aLinkThatNeverMakesTheAppWaitIsNotBehindAndHasNoMeasuredRate() {
    var meter = OutputRateMeter()
    for frame in 0..<120 {
      meter.record(
        bytes: 200_000, start: Self.start + .milliseconds(16 * frame), blocked: .microseconds(50))
    }
    #expect(!meter.isBehind)
    #expect(meter.measuredBytesPerSecond == nil)
    // 200 kB a frame for the ~1.9 s of the 2 s window that the frames cover.
    #expect(meter.offeredBytesPerSecond > 10_000_000)
  }

  @Test func aTenMegabitLinkIsBehindAndMeasuredAtItsRate() throws {
    var meter = OutputRateMeter()
    // 1.25 MB/s: each 125 kB frame blocks for 100 ms, a frame every 116 ms.
    for frame in 0..<30 {
      meter.record(
        bytes: 125_000, start: Self.start + .milliseconds(116 * frame), blocked: .milliseconds(100))
    }
    #expect(meter.isBehind)
    let rate = try #require(meter.measuredBytesPerSecond)
    #expect(abs(rate - 1_250_000) < 1_000)
  }

  @Test func oldWritesLeaveTheWindow() {
    var meter = OutputRateMeter(window: .seconds(1))
    meter.record(bytes: 1_000_000, start: Self.start, blocked: .milliseconds(900))
    #expect(meter.isBehind)
    for step in 1...200 {
      meter.record(bytes: 10, start: Self.start + .milliseconds(20 * step), blocked: .zero)
    }
    #expect(!meter.isBehind)
    #expect(meter.measuredBytesPerSecond == nil)
  }

  @Test func outsideNumbersAreClamped() {
    let meter = OutputRateMeter(window: .seconds(-5), behindShare: .nan)
    #expect(meter.window == .milliseconds(100))
    #expect(meter.behindShare == 0.25)
    var negative = OutputRateMeter()
    negative.record(bytes: -5, start: Self.start, blocked: .seconds(-1))
    #expect(negative.offeredBytesPerSecond == 0)
    #expect(!negative.isBehind)
  }

  @Test func framePolicyPreviewsOnlyOverSlowLinksInKittyAndSixelAndDrawsAllAtRest() {
    typealias Policy = ImageDrawPolicy
    #expect(
      Policy.forFrame(moving: false, fast: false, constrainedLink: true, graphics: .kitty) == .all)
    #expect(
      Policy.forFrame(moving: true, fast: false, constrainedLink: true, graphics: .kitty)
        == .preview)
    #expect(
      Policy.forFrame(moving: true, fast: true, constrainedLink: true, graphics: .kitty) == .preview
    )
    #expect(
      Policy.forFrame(moving: true, fast: true, constrainedLink: false, graphics: .kitty)
        == .cachedOnly)
    #expect(
      Policy.forFrame(moving: true, fast: false, constrainedLink: false, graphics: .kitty) == .all)
    #expect(
      Policy.forFrame(moving: true, fast: true, constrainedLink: true, graphics: .sixel)
        == .preview)
    #expect(
      Policy.forFrame(moving: true, fast: true, constrainedLink: true, graphics: .iterm2)
        == .cachedOnly)
    // At rest with previews first (SSH to kitty): the first screen's policy; moving, as before.
    #expect(
      Policy.forFrame(
        moving: false, fast: false, constrainedLink: true, graphics: .kitty, previewsFirst: true)
        == .previewsFirst)
    #expect(
      Policy.forFrame(
        moving: true, fast: true, constrainedLink: true, graphics: .kitty, previewsFirst: true)
        == .preview)
    #expect(Policy.isRemote(environment: ["SSH_CONNECTION": "10.0.0.2 5122 10.0.0.1 22"]))
    #expect(Policy.isRemote(environment: ["SSH_TTY": "/dev/pts/3"]))
    #expect(!Policy.isRemote(environment: ["SSH_CONNECTION": ""]))
  }
}
