import Foundation
import TesseraTestSupport
import Testing

@testable import TesseraImages

#if canImport(Glibc)
  import Glibc
#endif

/// Videos decoded by a real `ffmpeg` process: frames at their times, fitted to the box; a
/// stop leaves no process; a decoder's failure or hostile output is a reason, never a crash.
@Suite(.timeLimit(.minutes(1))) struct VideoStreamTests {
  let folder = TemporaryFolder.Owned(prefix: "tessera-video")

  /// Waits (on the test's thread, bounded) until `condition` holds; the stream's reader runs
  /// on its own thread, so this is how a test sees a real process's progress.
  private func eventually(_ what: String, _ condition: () -> Bool) {
    let deadline = ContinuousClock.now + .seconds(20)
    while !condition() {
      guard ContinuousClock.now < deadline else {
        Issue.record("\(what) did not happen in 20 s")
        return
      }
      usleep(2000)
    }
  }

  private func clip(seconds: Int = 2) throws -> String {
    let path = folder.url.appendingPathComponent("clip.mp4").path
    try TestMedia.video(path, seconds: seconds)
    return path
  }

  private func isGone(_ pid: Int32) -> Bool { kill(pid, 0) != 0 && errno == ESRCH }

  /// A stream from a shell script in ffmpeg's place (a hostile or broken decoder), asked for
  /// 32×32 frames at 10 a second.
  private func fakeDecoder(_ name: String, _ body: String) throws -> VideoStream {
    let script = folder.url.appendingPathComponent(name).path
    try Data(("#!/bin/sh\n" + body + "\n").utf8).write(to: URL(fileURLWithPath: script))
    chmod(script, 0o755)
    // A test beside this one that spawns a process between our write and our exec holds the
    // script open for writing in its child until that child's own exec, and our exec then
    // fails with ETXTBSY: most likely what CI saw once ("could not be started", the errno
    // is not kept). The window is that child's fork-to-exec: trying again at once, a few
    // times, is past it; a decoder that cannot start still fails on the last try.
    func start() throws -> VideoStream {
      try VideoStream(
        .init(path: "unused", size: PixelSize(width: 32, height: 32), framesPerSecond: 10),
        program: script
      ) {}
    }
    for _ in 1..<20 {
      if let stream = try? start() { return stream }
    }
    return try start()
  }

  /// Stops `stream` and expects its process gone within 2 s.
  private func expectStoppedAtOnce(_ stream: VideoStream) {
    let pid = stream.processID
    let start = ContinuousClock.now
    stream.stop()
    #expect(isGone(pid))
    #expect(
      ContinuousClock.now - start < .seconds(2), "the stop took \(ContinuousClock.now - start)")
  }

  @Test func everyFrameComesFittedAtItsTimeAndTheEndIsSaid() throws {
    let path = try clip()
    let stream = try VideoStream(
      .init(path: path, size: PixelSize(width: 64, height: 64), framesPerSecond: 10)
    ) {}
    var frames: [VideoFrame] = []
    eventually("the clip's end") {
      while let frame = stream.take(upTo: .seconds(60)) { frames.append(frame) }
      return stream.end != nil
    }
    // A 320×240 clip fits a 64×64 box as 64×48; 2 s at 10 a second. Taking everything at
    // once keeps only the newest of what waits, so fewer may be seen, never other times.
    #expect(stream.end == .finished)
    #expect(frames.allSatisfy { $0.image.size == PixelSize(width: 64, height: 48) })
    #expect(!frames.isEmpty)
    let times = frames.map(\.time)
    #expect(times == times.sorted() && Set(times).count == times.count)
    #expect(times.allSatisfy { $0 < .seconds(2) && $0 >= .zero })
    #expect(isGone(stream.processID))
  }

  @Test func framesAreTakenByTimeAndOlderOnesDropped() throws {
    let path = try clip()
    let stream = try VideoStream(
      .init(path: path, size: PixelSize(width: 32, height: 32), framesPerSecond: 10)
    ) {}
    defer { stream.stop() }
    eventually("two frames decoded") { stream.waitingFrames == VideoStream.queueLength }
    #expect(stream.take(upTo: .milliseconds(-1)) == nil)
    // Both wait (0 s and 0.1 s): asking for 0.5 s shows the newer and drops the older.
    let first = try #require(stream.take(upTo: .milliseconds(500)))
    #expect(first.time == .milliseconds(100))
    // The reader may already have decoded the next frame into the freed place: later ones only.
    #expect(stream.nextFrameTime.map { $0 > first.time } ?? true)
    var shown: [Duration] = []
    eventually("the frame of 0.5 s") {
      if let frame = stream.take(upTo: .milliseconds(500)) { shown.append(frame.time) }
      return shown.last == .milliseconds(500)
    }
    #expect(shown.allSatisfy { $0 > first.time && $0 <= .milliseconds(500) })
    let later = try #require(
      { () -> VideoFrame? in
        var frame: VideoFrame?
        eventually("the frame of 0.6 s") {
          frame = stream.take(upTo: .milliseconds(600))
          return frame != nil
        }
        return frame
      }())
    // The test card moves: another picture.
    #expect(later.image.pixels != first.image.pixels)
  }

  @Test func aSeekStartsThereAndStopLeavesNoProcess() throws {
    let path = try clip(seconds: 3)
    let stream = try VideoStream(
      .init(
        path: path, start: .milliseconds(1500), size: PixelSize(width: 32, height: 32),
        framesPerSecond: 10)
    ) {}
    eventually("a frame") { stream.nextFrameTime != nil }
    #expect(stream.nextFrameTime == .milliseconds(1500))
    // ffmpeg waits on the full pipe: stopping it must not wait for the video's end.
    let pid = stream.processID
    #expect(!isGone(pid))
    stream.stop()
    #expect(isGone(pid))
    #expect(stream.take(upTo: .seconds(10)) == nil)
    stream.stop()
  }

  @Test func aFileThatIsNoVideoFailsWithFfmpegsReason() throws {
    let path = folder.url.appendingPathComponent("fake.mp4").path
    try Data("this is not a video".utf8).write(to: URL(fileURLWithPath: path))
    let stream = try VideoStream(
      .init(path: path, size: PixelSize(width: 32, height: 32), framesPerSecond: 10)
    ) {}
    eventually("the failure") { stream.end != nil }
    guard case .failed(let reason) = stream.end else {
      Issue.record("a text file played: \(String(describing: stream.end))")
      return
    }
    #expect(reason.hasPrefix("ffmpeg: "), "\(reason)")
    #expect(isGone(stream.processID))
  }

  /// A decoder that writes a frame far larger than asked (a hostile or broken program in
  /// ffmpeg's place) is stopped before anything is allocated for it.
  @Test func aFrameLargerThanAskedIsRefusedAndTheDecoderStopped() throws {
    let stream = try fakeDecoder(
      "huge-frames", "printf 'P6\\n60000 60000\\n255\\n'\nexec sleep 60")
    eventually("the refusal") { stream.end != nil }
    #expect(
      stream.end
        == .failed("ffmpeg's output: a 60000x60000 frame, larger than the 32x32 asked for"))
    #expect(isGone(stream.processID))
  }

  /// A decoder that never ends (a hostile file, an endless stream): at most two frames wait
  /// decoded however long it writes, it blocks on the full pipe, and a stop ends it at once.
  @Test func anEndlessStreamHoldsTwoFramesAndStopsAtOnce() throws {
    let stream = try fakeDecoder(
      "endless-frames", "while :; do printf 'P6\\n32 32\\n255\\n'; head -c 3072 /dev/zero; done")
    defer { stream.stop() }
    var taken = 0
    var most = 0
    eventually("100 frames taken") {
      most = max(most, stream.waitingFrames)
      if stream.take(upTo: .seconds(3600)) != nil { taken += 1 }
      return taken >= 100
    }
    #expect(most <= VideoStream.queueLength, "\(most) frames waited")
    expectStoppedAtOnce(stream)
  }

  /// A decoder that hangs, writing nothing: no frame, no end, and a stop ends it at once
  /// (the player's stall deadline, `VideoPlaybackTests`, is what calls it).
  @Test func aDecoderThatHangsIsStoppedAtOnce() throws {
    let stream = try fakeDecoder("hanging", "exec sleep 600")
    #expect(stream.nextFrameTime == nil)
    #expect(stream.end == nil)
    expectStoppedAtOnce(stream)
  }

  @Test func aMissingDecoderSaysWhatToInstall() {
    #expect(throws: ImagePipelineError.self) {
      try VideoStream(
        .init(path: "x", size: PixelSize(width: 8, height: 8), framesPerSecond: 1),
        program: "/nonexistent/ffmpeg"
      ) {}
    }
  }

  @Test func argumentsSeekFitAndSkipAMotionPhotosJPEG() {
    let words = VideoStream.arguments(
      for: .init(
        path: "/p/IMG.jpg", byteOffset: 1234, byteLength: 100, start: .milliseconds(2500),
        size: PixelSize(width: 640, height: 360), framesPerSecond: 12))
    let text = words.joined(separator: " ")
    #expect(text.contains("-ss 2.500 -i subfile,,start,1234,end,1334,,:file:/p/IMG.jpg"))
    #expect(text.contains("fps=12,scale=640:360:force_original_aspect_ratio=decrease"))
    #expect(Array(words.suffix(4)) == ["image2pipe", "-c:v", "ppm", "pipe:1"])
    // A whole file, named with a colon: a file, not a protocol.
    #expect(
      VideoStream.input(path: "/p/a:b.mp4", byteOffset: 0, byteLength: nil) == "file:/p/a:b.mp4")
    #expect(
      VideoStream.input(path: "/p/x.jpg", byteOffset: 10, byteLength: nil)
        == "subfile,,start,10,end,0,,:file:/p/x.jpg")
  }

  /// A motion photo: a JPEG with an MP4 after it. ffmpeg reads the MP4 alone, its own
  /// offsets counted from its first byte.
  @Test func anMP4AfterAJPEGPlaysFromItsOffset() throws {
    let path = try clip()
    let video = try Data(contentsOf: URL(fileURLWithPath: path))
    let photo = Data([0xFF, 0xD8]) + Data(repeating: 0x55, count: 5000) + Data([0xFF, 0xD9])
    let joined = folder.url.appendingPathComponent("PXL.MP.jpg").path
    try (photo + video).write(to: URL(fileURLWithPath: joined))
    let probe = VideoProbe.probe(path: joined, byteOffset: Int64(photo.count))
    #expect(probe.duration == .seconds(2))
    let stream = try VideoStream(
      .init(
        path: joined, byteOffset: Int64(photo.count), byteLength: Int64(video.count),
        size: PixelSize(width: 32, height: 32), framesPerSecond: 10)
    ) {}
    var frames = 0
    eventually("the motion's end") {
      while stream.take(upTo: .seconds(60)) != nil { frames += 1 }
      return stream.end != nil
    }
    #expect(stream.end == .finished)
    #expect(frames > 0)
  }
}
