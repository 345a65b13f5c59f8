import Foundation
import TesseraPhotoFormats
import TesseraTestSupport
import Testing

@testable import TesseraImages

/// APNG files and AVIF sequences, which libvips reads one picture of, play through ffmpeg:
/// every frame with its own delay, within the animation budget; an AVIF sequence's still is
/// its first frame.
@Suite(.timeLimit(.minutes(2))) struct SequenceDecoderTests {
  let folder = TemporaryFolder.Owned(prefix: "tessera-sequence")

  private func decode(
    _ path: String, target: PixelSize = PixelSize(width: 64, height: 64),
    maxBytes: Int = AnimationDecoder.maxBytes
  ) async throws -> Animation? {
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    let sequence = try #require(ImageSequence(Array(data.prefix(4096))))
    return try SequenceDecoder.decode(
      path: path, sequence: sequence, targetSize: target, maxFrames: 500, maxBytes: maxBytes,
      maxPixels: 100_000_000)
  }

  @Test func aRealWorldAPNGPlaysEveryFrameAtItsDelay() async throws {
    let path = folder.url.appendingPathComponent("penguins.png").path
    try RealWorldAPNG.penguins.write(to: URL(fileURLWithPath: path))
    // Through the entry the detail view uses, from the file.
    let played = try #require(
      try await AnimationDecoder.decode(
        fileAtPath: path, targetSize: PixelSize(width: 200, height: 200), maxFileBytes: 1 << 20))
    #expect(played.frames.count == 6)
    #expect(played.frames[0].size == PixelSize(width: 76, height: 76))  // never enlarged
    #expect(played.delays.allSatisfy { $0 == .milliseconds(120) })
    #expect(played.loopCount == 0)
    #expect(Set(played.frames.map(\.pixels)).count > 1)
  }

  @Test func anAPNGMadeByFfmpegKeepsItsPlaysAndFitsTheBox() async throws {
    let path = folder.url.appendingPathComponent("card.png").path
    try TestMedia.animation(path, frames: 8, rate: 20, plays: 3, size: "160x120")
    let played = try #require(try await decode(path))
    #expect(played.frames.count == 8)
    #expect(played.frames[0].size == PixelSize(width: 64, height: 48))
    #expect(played.frames[0].originalSize == PixelSize(width: 160, height: 120))
    #expect(played.delays.allSatisfy { $0 == .milliseconds(50) })
    #expect(played.loopCount == 3)
    #expect(played.frames[0].pixels != played.frames[4].pixels)
    // The budget: 8 frames in 8 × 16 × 12 × 4 bytes make smaller frames, not fewer.
    let small = try #require(try await decode(path, maxBytes: 8 * 16 * 12 * 4))
    #expect(small.frames.count == 8)
    #expect(small.frames.reduce(0) { $0 + $1.cost } <= 8 * 16 * 12 * 4)
  }

  @Test func anAVIFSequencePlaysAndItsStillIsItsFirstFrame() async throws {
    let path = folder.url.appendingPathComponent("burst.avif").path
    try TestMedia.animation(path, frames: 6, rate: 10, size: "96x64")
    let played = try #require(try await decode(path))
    #expect(played.frames.count == 6)
    #expect(played.frames[0].size == PixelSize(width: 64, height: 42))
    #expect(played.delays.allSatisfy { $0 == .milliseconds(100) })
    #expect(played.loopCount == 0)
    let still = try LocalFileReader.contentsBlocking(atPath: path, maxBytes: 1 << 20)
    #expect(Array(still.prefix(4)) == [0x89, 0x50, 0x4E, 0x47])
    let decoded = try ImageDecoder().decode(still, targetSize: PixelSize(width: 96, height: 96))
    #expect(decoded.size == PixelSize(width: 96, height: 64))
  }

  @Test func aFileThatIsNoSequenceFailsWithAReason() throws {
    let path = folder.url.appendingPathComponent("broken.png").path
    // An APNG's first chunks and nothing after them.
    var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    bytes += [0, 0, 0, 8] + Array("acTL".utf8) + [0, 0, 0, 3, 0, 0, 0, 0] + [0, 0, 0, 0]
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    let sequence = try #require(ImageSequence(bytes))
    // ffprobe finds no frames: a single picture (nil) or a reason, never a crash.
    do {
      let played = try SequenceDecoder.decode(
        path: path, sequence: sequence, targetSize: PixelSize(width: 32, height: 32),
        maxFrames: 500, maxBytes: 1 << 20, maxPixels: 1 << 20)
      #expect(played == nil)
    } catch {
      #expect(!"\(error)".isEmpty)
    }
  }

  @Test func probedNumbersAreChecked() {
    let facts = SequenceFacts.parse(
      "width=99999\nheight=10\nduration_time=0.1\nduration_time=nan\nduration_time=-1\n")
    #expect(facts.size == nil)
    #expect(facts.durations == [0.1, 0, 0])
    #expect(
      SequenceDecoder.frameSize(
        canvas: PixelSize(width: 1000, height: 500), target: PixelSize(width: 2000, height: 2000),
        frames: 10, maxBytes: 10 * 100 * 50 * 4) == PixelSize(width: 100, height: 50))
  }
}
