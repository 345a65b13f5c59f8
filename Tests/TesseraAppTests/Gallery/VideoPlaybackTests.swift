import Foundation
import TesseraImages
import TesseraPhotoLibrary
import TesseraTerminal
import TesseraTestSupport
import TesseraUtilities
import Testing

@testable import TesseraGallery

/// A video in the detail view, headless, with a held frame source and given instants: frames
/// follow the player's clock and late ones are dropped, Space pauses, ←/→ start a decoder at
/// the new position, a silent decoder is stopped as stalled, and Esc stops everything.
@MainActor
@Suite(.inProcessScreen)
struct VideoPlaybackTests {
  let local = LocalGalleryTests()

  /// The decoders the screen started, in order, and what each was asked for.
  final class Started {
    var sources: [HeldVideoFrames] = []
    var requests: [VideoStream.Request] = []
  }

  /// A screen on one 12-second video and one photo, the video selected; decoders are held.
  private func screen(
    failing: Bool = false
  ) async -> (GalleryScreen, Started) {
    let walker = ControlledWalker()
    let (screen, library) = local.makeScreen(walker)
    let started = Started()
    screen.services.probeVideo = { _, _, _ in
      VideoProbe(duration: .seconds(12), framesPerSecond: 10)
    }
    screen.services.startVideo = { request, _ throws(ImagePipelineError) in
      if failing { throw .decodingFailed("ffmpeg could not be started") }
      let source = HeldVideoFrames()
      started.sources.append(source)
      started.requests.append(request)
      return source
    }
    let walk = Task { await screen.start() }
    let files = [
      LocalGalleryTests.file("clip.mp4", "2024:06:02 12:00:00"),
      LocalGalleryTests.file("photo.jpg", "2024:06:01 12:00:00"),
    ]
    walker.release(WalkBatch(files: files, foldersWalked: 1, finished: true))
    await walk.value
    await local.until { screen.feed.items.count == 2 && library.progress.headersRead == 2 }
    return (screen, started)
  }

  private func press(_ screen: GalleryScreen, _ keys: Key...) {
    for key in keys { _ = screen.handle(.key(key, [])) }
  }

  private func shownImageID(_ screen: GalleryScreen) -> UInt64? {
    _ = screen.tick(milliseconds: 0)
    return screen.compose(framesPerSecond: 0, spinner: 0).images.last?.imageID
  }

  /// Opens the selected video and waits for its decoder.
  private func open(_ screen: GalleryScreen) async throws -> ContinuousClock.Instant {
    let index = try #require(screen.feed.items.firstIndex { $0.title == "clip.mp4" })
    screen.selected = index
    press(screen, .enter)
    await local.until { screen.detail.video != nil }
    return try #require(screen.detail.video?.origin.instant)
  }

  @Test func framesFollowThePlayersClockAndLateOnesAreDropped() async throws {
    let (screen, started) = await screen()
    let start = try await open(screen)
    let source = try #require(started.sources.first)
    // The box's pixel size, at the video's own rate.
    #expect(started.requests.first?.framesPerSecond == 10)
    #expect(started.requests.first?.start == .zero)
    try source.release(at: .zero, shade: 10)
    try source.release(at: .milliseconds(100), shade: 20)
    #expect(screen.nextTimedWake == start)
    #expect(screen.advanceVideo(at: start + .milliseconds(50)))
    #expect(screen.detail.video?.shown?.time == .zero)
    let first = shownImageID(screen)
    #expect(first != nil)
    #expect(screen.nextTimedWake == start + .milliseconds(100))
    #expect(!screen.advanceVideo(at: start + .milliseconds(90)))
    // 250 ms in: 0.1 s and 0.2 s wait, only 0.2 s is drawn.
    try source.release(at: .milliseconds(200), shade: 30)
    #expect(screen.advanceVideo(at: start + .milliseconds(250)))
    #expect(screen.detail.video?.shown?.time == .milliseconds(200))
    let second = shownImageID(screen)
    #expect(second != nil && second != first)
    #expect(local.text(screen).contains { $0.contains("▶ 0:00 / 0:12 · Space pause/play") })
    // The end: drawn once, the last frame stays, nothing is due.
    source.finish(.finished)
    #expect(screen.advanceVideo(at: start + .milliseconds(300)))
    #expect(!screen.advanceVideo(at: start + .milliseconds(400)))
    #expect(screen.nextTimedWake == nil)
    #expect(shownImageID(screen) == second)
    // Esc stops the decoder, and nothing wakes the loop for it.
    press(screen, .escape)
    #expect(source.stopped)
    #expect(screen.detail.video == nil)
  }

  @Test func spacePausesAndArrowsSeekWithANewDecoder() async throws {
    let (screen, started) = await screen()
    _ = try await open(screen)
    press(screen, .space)
    let paused = try #require(screen.detail.video)
    #expect(paused.isPaused)
    #expect(screen.nextTimedWake == nil)
    // Paused, a waiting frame is not taken whatever the time.
    let source = try #require(started.sources.first)
    try source.release(at: .zero)
    #expect(!screen.advanceVideo(at: .now + .seconds(5)))
    // → from where it paused, +5 s: a new decoder from there, the old one stopped; still
    // paused (at the new place).
    press(screen, .right)
    #expect(started.requests.count == 2)
    let at = try #require(started.requests.last?.start)
    #expect(at >= .seconds(5) && at < .seconds(6))
    #expect(source.stopped)
    #expect(screen.detail.video?.isPaused == true)
    // ← twice: never before the start.
    press(screen, .left, .left)
    #expect(started.requests.last?.start == .zero)
    // Past the end: at the end.
    for _ in 0..<4 { press(screen, .right) }
    #expect(started.requests.last?.start == .seconds(12))
    press(screen, .space)
    #expect(screen.detail.video?.isPaused == false)
    #expect(started.sources.dropLast().allSatisfy { $0.stopped })
  }

  @Test func aDecoderSilentForTenSecondsIsStoppedWithAReason() async throws {
    let (screen, started) = await screen()
    let start = try await open(screen)
    let source = try #require(started.sources.first)
    #expect(screen.nextTimedWake == start + VideoPlayback.stallLimit)
    #expect(!screen.advanceVideo(at: start + .seconds(9)))
    #expect(screen.advanceVideo(at: start + .seconds(10)))
    #expect(source.stopped)
    #expect(screen.status.message == "✗ the video stopped: the video stalled: no frame in 10 s")
    #expect(screen.nextTimedWake == nil)
    // Space plays it again, from the start, with a new decoder.
    press(screen, .space)
    await local.until { started.sources.count == 2 && screen.detail.video != nil }
    #expect(started.requests.last?.start == .zero)
  }

  @Test func aDecoderThatFailsSaysWhyAndThePosterStays() async throws {
    let (screen, started) = await screen()
    let start = try await open(screen)
    let source = try #require(started.sources.first)
    source.finish(.failed("ffmpeg: moov atom not found"))
    #expect(screen.advanceVideo(at: start))
    #expect(screen.status.message == "✗ the video stopped: ffmpeg: moov atom not found")
    #expect(local.text(screen).contains { $0.contains("✗ 0:00 / 0:12") })
  }

  @Test func aDecoderThatCannotStartIsSaidInTheStatusBar() async throws {
    let (screen, _) = await screen(failing: true)
    let index = try #require(screen.feed.items.firstIndex { $0.title == "clip.mp4" })
    screen.selected = index
    press(screen, .enter)
    await local.until { screen.status.message != nil }
    #expect(
      screen.status.message
        == "✗ the video cannot play: decoding failed: ffmpeg could not be started")
    #expect(screen.detail.video == nil)
  }

  /// `p` on a Live Photo plays its MOV (from byte 0) and, once played, the still photo is
  /// back; on a motion photo, its appended MP4 from its offset; on a still photo, a word.
  @Test func pPlaysAPhotosMotionAndTheStillComesBack() async throws {
    let walker = ControlledWalker()
    let (screen, library) = local.makeScreen(walker)
    let started = Started()
    screen.services.probeVideo = { _, _, _ in VideoProbe(duration: .seconds(2)) }
    screen.services.startVideo = { request, _ throws(ImagePipelineError) in
      let source = HeldVideoFrames()
      started.sources.append(source)
      started.requests.append(request)
      return source
    }
    let walk = Task { await screen.start() }
    var live = LocalGalleryTests.file("IMG_1.HEIC", "2024:06:02 12:00:00")
    live.motionCompanion = "IMG_1.MOV"
    walker.release(
      WalkBatch(
        files: [live, LocalGalleryTests.file("still.jpg", "2024:06:01 12:00:00")],
        foldersWalked: 1, finished: true))
    await walk.value
    await local.until { screen.feed.items.count == 2 && library.progress.headersRead == 2 }
    screen.selected = try #require(screen.feed.items.firstIndex { $0.title == "IMG_1.HEIC" })
    press(screen, .enter)
    #expect(local.text(screen).contains { $0.contains("p plays its motion") })
    press(screen, .character("p"))
    await local.until { screen.detail.video != nil }
    #expect(started.requests.first?.path == "/p/IMG_1.MOV")
    #expect(started.requests.first?.byteOffset == 0)
    let start = try #require(screen.detail.video?.origin.instant)
    let source = try #require(started.sources.first)
    try source.release(at: .zero, shade: 90)
    #expect(screen.advanceVideo(at: start))
    #expect(local.text(screen).contains { $0.contains("▶ 0:00 / 0:02 · p stops") })
    source.finish(.finished)
    #expect(screen.advanceVideo(at: start + .seconds(2)))
    #expect(screen.detail.video == nil)
    #expect(source.stopped)
    // p again plays it again; p while it plays stops it.
    press(screen, .character("p"))
    await local.until { screen.detail.video != nil }
    press(screen, .character("p"))
    #expect(screen.detail.video == nil && started.sources.last?.stopped == true)
    // A still photo has none.
    press(screen, .escape)
    screen.selected = try #require(screen.feed.items.firstIndex { $0.title == "still.jpg" })
    press(screen, .enter, .character("p"))
    #expect(screen.status.message == "this photo has no motion to play")
    #expect(started.sources.count == 2)
  }

  @Test func spaceOnAPhotoStillShowsTheNext() async throws {
    let (screen, started) = await screen()
    let index = try #require(screen.feed.items.firstIndex { $0.title == "photo.jpg" })
    screen.selected = index
    press(screen, .enter)
    press(screen, .space)
    guard case .detail(let item) = screen.overlay else {
      Issue.record("the detail view closed")
      return
    }
    #expect(item.title == "clip.mp4")
    #expect(started.sources.isEmpty || screen.detail.video != nil)
  }
}
