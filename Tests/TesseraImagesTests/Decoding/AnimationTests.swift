import Foundation
import TesseraTestSupport
import Testing

@testable import TesseraImages

/// The timeline: which frame shows when, with the delays browsers give GIFs of 0 or 10 ms.
@Suite struct AnimationTimelineTests {
  private func animation(delays: [Int], plays: Int) throws -> Animation {
    let frames = try delays.indices.map { index in
      try Image(
        width: 1, height: 1, pixels: [UInt8(index), 0, 0, 255],
        originalSize: PixelSize(width: 1, height: 1))
    }
    return try Animation(frames: frames, delaysInMilliseconds: delays, loopCount: plays)
  }

  @Test func delaysOfTenMillisecondsOrLessPlayAtATenthOfASecond() throws {
    let played = try animation(delays: [0, 10, 11, 500, -3], plays: 0)
    #expect(played.delays == [100, 100, 11, 500, 100].map(Duration.milliseconds))
    #expect(played.length == .milliseconds(811))
  }

  @Test func eachMomentShowsItsFrameAndHowLongItStays() throws {
    let played = try animation(delays: [100, 200, 300], plays: 0)
    #expect(played.frame(at: .zero) == (0, .milliseconds(100)))
    #expect(played.frame(at: .milliseconds(99)) == (0, .milliseconds(1)))
    #expect(played.frame(at: .milliseconds(100)) == (1, .milliseconds(200)))
    #expect(played.frame(at: .milliseconds(350)) == (2, .milliseconds(250)))
    // Forever: the second play, and the hundredth, start again.
    #expect(played.frame(at: .milliseconds(600)) == (0, .milliseconds(100)))
    #expect(played.frame(at: .milliseconds(600 * 100 + 150)) == (1, .milliseconds(150)))
    #expect(played.frame(at: .milliseconds(-5)) == (0, .milliseconds(100)))
  }

  @Test func aLateCallerSkipsToTheFrameOfItsMoment() throws {
    let played = try animation(delays: Array(repeating: 40, count: 25), plays: 0)
    // A frame drawn 130 ms late shows the frame due then, not the one after the last shown.
    #expect(played.frame(at: .milliseconds(40 * 3 + 130)).index == 6)
  }

  @Test func aCountedLoopEndsOnItsLastFrameForGood() throws {
    let played = try animation(delays: [100, 100], plays: 2)
    #expect(played.frame(at: .milliseconds(350)) == (1, .milliseconds(50)))
    #expect(played.frame(at: .milliseconds(400)) == (1, nil))
    #expect(played.frame(at: .seconds(3_600)) == (1, nil))
  }

  @Test func fewerThanTwoFramesOrFramesOfManySizesAreNoAnimation() throws {
    let one = try Image(
      width: 1, height: 1, pixels: [0, 0, 0, 255], originalSize: PixelSize(width: 1, height: 1))
    let other = try Image(
      width: 2, height: 1, pixels: Array(repeating: 0, count: 8),
      originalSize: PixelSize(width: 2, height: 1))
    #expect(throws: ImagePipelineError.self) {
      try Animation(frames: [one], delaysInMilliseconds: [100], loopCount: 0)
    }
    #expect(throws: ImagePipelineError.self) {
      try Animation(frames: [one, other], delaysInMilliseconds: [100, 100], loopCount: 0)
    }
  }
}

/// Real animations, made by ffmpeg at test time, decoded through libvips.
@Suite(.timeLimit(.minutes(1))) struct AnimationDecoderTests {
  let folder = TemporaryFolder.Owned(prefix: "tessera-animation")

  private func made(_ name: String, frames: Int, rate: Int = 10, plays: Int = 0) throws -> Data {
    let path = folder.url.appendingPathComponent(name).path
    try TestMedia.animation(path, frames: frames, rate: rate, plays: plays, size: "320x240")
    return try Data(contentsOf: URL(fileURLWithPath: path))
  }

  @Test(arguments: ["gif", "webp"])
  func everyFramePlaysWithItsDelayAndLoopCount(format: String) throws {
    let data = try made("clip.\(format)", frames: 12, rate: 20, plays: 3)
    let played = try #require(
      try AnimationDecoder.decode(data, targetSize: PixelSize(width: 160, height: 160)))
    #expect(played.frames.count == 12)
    #expect(played.frames[0].size == PixelSize(width: 160, height: 120))
    #expect(played.frames[0].originalSize == PixelSize(width: 320, height: 240))
    #expect(played.delays.allSatisfy { $0 == .milliseconds(50) })
    #expect(played.loopCount == 3)
    // ffmpeg's test card moves: the frames are different pictures.
    #expect(played.frames[0].pixels != played.frames[5].pixels)
  }

  @Test func aGifThatLoopsForeverSaysSo() throws {
    let played = try #require(
      try AnimationDecoder.decode(
        try made("forever.gif", frames: 4), targetSize: PixelSize(width: 64, height: 64)))
    #expect(played.loopCount == 0)
    #expect(played.frames.count == 4)
  }

  @Test func theMemoryBudgetShrinksFramesAndTheFrameLimitCutsThem() throws {
    let data = try made("long.gif", frames: 30)
    let budget = 30 * 80 * 60 * 4
    let small = try #require(
      try AnimationDecoder.decode(
        data, targetSize: PixelSize(width: 320, height: 240), maxBytes: budget))
    #expect(small.frames.count == 30)
    #expect(small.frames.reduce(0) { $0 + $1.cost } <= budget)
    #expect(small.frames[0].width <= 80)
    let cut = try #require(
      try AnimationDecoder.decode(
        data, targetSize: PixelSize(width: 64, height: 64), maxFrames: 7))
    #expect(cut.frames.count == 7)
  }

  @Test func aStillPictureIsNoAnimation() throws {
    let path = folder.url.appendingPathComponent("still.gif").path
    try TestMedia.make(path, from: "testsrc=size=64x48", arguments: ["-frames:v", "1"])
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    #expect(try AnimationDecoder.decode(data, targetSize: PixelSize(width: 64, height: 64)) == nil)
    let jpeg = TestImages.gradient(width: 64, height: 48, as: ".jpg")
    #expect(try AnimationDecoder.decode(jpeg, targetSize: PixelSize(width: 64, height: 64)) == nil)
  }

  /// A cut-off GIF plays the frames it holds, as browsers do; bytes past repair are an
  /// error, never a crash.
  @Test func aCutGifPlaysWhatItHoldsAndBrokenBytesAreAnError() throws {
    let data = try made("cut.gif", frames: 10)
    let cut = try AnimationDecoder.decode(
      Data(data.prefix(data.count / 2)), targetSize: PixelSize(width: 64, height: 64))
    #expect((2..<10).contains(cut?.frames.count ?? 0))
    var broken = Data(data.prefix(64))
    broken.append(Data(repeating: 0xA5, count: 4_096))
    #expect(throws: ImagePipelineError.self) {
      _ = try AnimationDecoder.decode(broken, targetSize: PixelSize(width: 64, height: 64))
    }
  }
}
