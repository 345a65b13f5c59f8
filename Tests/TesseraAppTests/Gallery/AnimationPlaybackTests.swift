import Foundation
import TesseraImages
import TesseraTerminal
import TesseraTestSupport
import Testing

@testable import TesseraGallery

/// An animation in the detail view, headless: frames follow the given clock, each frame is
/// its own image id (uploaded once, replayed after), the run loop's next wake is the next
/// frame, and nothing wakes it once a counted loop has ended.
@MainActor
@Suite(.inProcessScreen)
struct AnimationPlaybackTests {
  let finding = FindingAndDetailTests()

  private func frames(_ count: Int) throws -> [TesseraImages.Image] {
    try (0..<count).map { index in
      try TesseraImages.Image(
        width: 4, height: 2,
        pixels: (0..<8).flatMap { _ in [UInt8(index * 80), 0, 0, 255] },
        originalSize: PixelSize(width: 4, height: 2))
    }
  }

  private func shownImageID(_ screen: GalleryScreen) -> UInt64? {
    _ = screen.tick(milliseconds: 0)
    return screen.compose(framesPerSecond: 0, spinner: 0).images.last?.imageID
  }

  @Test func framesFollowTheClockAndACountedLoopStopsWaking() async throws {
    let screen = await finding.screen()
    finding.press(screen, .enter)
    guard case .detail(let item) = screen.overlay else {
      Issue.record("Enter opened no detail view")
      return
    }
    let request = try #require(screen.detailRequest)
    let animation = try Animation(
      frames: try frames(3), delaysInMilliseconds: [100, 100, 100], loopCount: 2)
    let start = ContinuousClock.now
    screen.detail.playback = AnimationPlayback(
      itemID: item.id, animation: animation, request: request, start: start)
    let first = shownImageID(screen)
    #expect(first != nil)
    #expect(screen.nextTimedWake == start + .milliseconds(100))

    #expect(!screen.advanceAnimation(at: start + .milliseconds(50)))
    #expect(screen.advanceAnimation(at: start + .milliseconds(100)))
    #expect(screen.needsDisplay)
    let second = shownImageID(screen)
    #expect(second != nil && second != first)
    #expect(screen.nextTimedWake == start + .milliseconds(200))

    // 350 ms late: the frame of its moment (the second play's third), not the next one.
    #expect(screen.advanceAnimation(at: start + .milliseconds(550)))
    #expect(screen.detail.playback?.frame == 2)
    // The second play ended: the last frame stays, and nothing is due any more.
    #expect(!screen.advanceAnimation(at: start + .milliseconds(700)))
    #expect(screen.nextTimedWake == nil)
    // The first frame's id again when it comes round: the terminal's copy is reused.
    screen.detail.playback = AnimationPlayback(
      itemID: item.id, animation: animation, request: request, start: start)
    #expect(shownImageID(screen) == first)

    // Esc: the frames go with the detail view.
    finding.press(screen, .escape)
    #expect(screen.detail.playback == nil)
    #expect(screen.nextTimedWake == nil)
  }

  /// In kitty the frames go to the terminal once, in one placement, and the run loop wakes
  /// only twice more (to repeat the start), never for a frame.
  @Test func aTerminalThatPlaysAnimationsGetsEveryFrameOnceAndNoWakes() async throws {
    let screen = await finding.screen()
    screen.terminal.playsAnimations = true
    finding.press(screen, .enter)
    guard case .detail(let item) = screen.overlay else {
      Issue.record("Enter opened no detail view")
      return
    }
    let animation = try Animation(
      frames: try frames(3), delaysInMilliseconds: [100, 40, 300], loopCount: 0)
    let start = ContinuousClock.now
    screen.detail.playback = AnimationPlayback(
      itemID: item.id, animation: animation, request: try #require(screen.detailRequest),
      start: start, terminalPlays: screen.terminal.playsAnimations)
    _ = screen.tick(milliseconds: 0)
    let placement = try #require(screen.compose(framesPerSecond: 0, spinner: 0).images.last)
    let sent = try #require(placement.animation, "the placement carries no frames")
    #expect(sent.frames.count == 3)
    #expect(sent.frames.map { $0.pixels[0] } == [0, 80, 160])
    #expect(sent.gapsInMilliseconds == [100, 40, 300])
    #expect(sent.loopCount == 0)
    // Wakes: the two start repeats, then none, though it loops forever.
    var wakes: [Duration] = []
    while let due = screen.nextTimedWake, wakes.count < 10 {
      wakes.append(due - start)
      #expect(screen.advanceAnimation(at: due))
      #expect(screen.detail.playback?.frame == 0)
    }
    #expect(wakes == AnimationPlayback.startRepeats)
    _ = screen.tick(milliseconds: 0)
    #expect(
      screen.compose(framesPerSecond: 0, spinner: 0).images.last?.imageID == placement.imageID)
  }

  @Test func anAnimationTooLargeForTheTerminalIsDrawnFrameByFrame() throws {
    // 1024×1024 RGBA frames: 17 are past what the terminal may hold.
    let frame = try TesseraImages.Image(
      width: 1024, height: 1024, pixels: [UInt8](repeating: 9, count: 1024 * 1024 * 4),
      originalSize: PixelSize(width: 1024, height: 1024))
    let playback = AnimationPlayback(
      itemID: "a",
      animation: try Animation(
        frames: Array(repeating: frame, count: 17), delaysInMilliseconds: [], loopCount: 0),
      request: ImageRequest(url: URL(fileURLWithPath: "/a.gif"), targetSize: nil),
      start: .now, terminalPlays: true)
    #expect(playback.terminalAnimation == nil)
    #expect(playback.due == playback.start + Animation.defaultDelay)
  }

  @Test func aZoomShowsTheStillPictureAndEndsThePlay() async throws {
    let screen = await finding.screen()
    finding.press(screen, .enter)
    guard case .detail(let item) = screen.overlay else {
      Issue.record("Enter opened no detail view")
      return
    }
    screen.detail.playback = AnimationPlayback(
      itemID: item.id,
      animation: try Animation(frames: try frames(2), delaysInMilliseconds: [], loopCount: 0),
      request: try #require(screen.detailRequest), start: .now)
    finding.press(screen, .character("+"))
    #expect(screen.detail.playback == nil)
  }
}
