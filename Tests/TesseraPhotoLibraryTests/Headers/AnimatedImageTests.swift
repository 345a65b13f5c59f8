import Foundation
import TesseraTestSupport
import Testing

@testable import TesseraPhotoFormats
@testable import TesseraPhotoLibrary

@Suite(.timeLimit(.minutes(1))) struct AnimatedImageTests {
  /// A GIF as a writer lays it out: header, screen descriptor with `globalColours` entries,
  /// optional NETSCAPE loop extension, a graphic control extension and an image per frame.
  private func gif(frames: Int, loops: Bool, globalColours: Int = 4) -> [UInt8] {
    var bytes = Array("GIF89a".utf8) + [8, 0, 8, 0]
    let bits = UInt8(globalColours.trailingZeroBitCount - 1)
    bytes += [0x80 | bits, 0, 0] + Array(repeating: 0x11, count: 3 * globalColours)
    if loops { bytes += [0x21, 0xFF, 11] + Array("NETSCAPE2.0".utf8) + [3, 1, 0, 0, 0] }
    for _ in 0..<frames {
      bytes += [0x21, 0xF9, 4, 0, 10, 0, 0, 0]
      bytes += [0x2C, 0, 0, 0, 0, 8, 0, 8, 0, 0x81] + Array(repeating: 0x22, count: 12)
      bytes += [2, 3, 0x44, 0x55, 0x66, 0]
    }
    return bytes + [0x3B]
  }

  @Test func aGifOfTwoImagesIsAnimatedAndOneImageIsNotLoopOrNot() {
    #expect(AnimatedImage.isAnimated(gif(frames: 2, loops: false)))
    #expect(!AnimatedImage.isAnimated(gif(frames: 1, loops: true)))
    #expect(!AnimatedImage.isAnimated(gif(frames: 1, loops: false)))
    // Bytes that end inside the first frame: a loop extension before it says animation.
    let looping = gif(frames: 2, loops: true)
    #expect(AnimatedImage.isAnimated(Array(looping.prefix(looping.count - 40))))
    let plain = gif(frames: 2, loops: false)
    #expect(!AnimatedImage.isAnimated(Array(plain.prefix(plain.count - 40))))
    #expect(!AnimatedImage.isAnimated(gif(frames: 1, loops: false, globalColours: 256)))
  }

  @Test func cutOrForgedGifsAreNotAnimatedAndNothingTraps() {
    let whole = gif(frames: 2, loops: false)
    for length in 0..<whole.count - 1 {
      // Animated from the second image's first byte on (the last frame is 36 bytes, its
      // image 28 from the end); before it, one image seen, or none.
      let cut = Array(whole.prefix(length))
      #expect(AnimatedImage.isAnimated(cut) == (length >= whole.count - 28), "cut at \(length)")
    }
    var forged = gif(frames: 1, loops: false)
    forged[10] = 0x87  // a global colour table of 256 entries that is not there
    #expect(!AnimatedImage.isAnimated(forged))
    // Sub-blocks that never end.
    let endless =
      Array("GIF89a".utf8) + [8, 0, 8, 0, 0, 0, 0, 0x21, 0x01]
      + Array(repeating: 0x01, count: 100_000)
    #expect(!AnimatedImage.isAnimated(endless))
  }

  /// Read from a file, as the folder walk reads it: the reader knows it has the whole file,
  /// so a loop block with no second image (ffmpeg's one-frame GIF, or 44 bytes with no image
  /// at all) is no animation, and a screen claiming 10000×10000 around one 1×1 image is
  /// shown at the image's size.
  @Test func aWholeFileIsJudgedByItsFrames() async throws {
    try await TemporaryFolder.with(prefix: "tessera-animated") { folder in
      func header(_ bytes: [UInt8]) throws -> PhotoHeader? {
        let path = folder.appendingPathComponent("f.gif").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return LocalPhotoHeaderReader().header(ofFileAt: path)
      }
      let noImage =
        Array("GIF89a".utf8) + [8, 0, 8, 0, 0, 0, 0] + [0x21, 0xFF, 11]
        + Array("NETSCAPE2.0".utf8) + [3, 1, 0, 0, 0]
      #expect(noImage.count <= 44)
      #expect(AnimatedImage.isAnimated(noImage), "as a prefix, the loop block still counts")
      let badges = [
        try header(noImage)?.isAnimated, try header(gif(frames: 1, loops: true))?.isAnimated,
        try header(gif(frames: 2, loops: true))?.isAnimated,
      ]
      #expect(badges == [false, false, true])
      let screenLies =
        Array("GIF89a".utf8) + [0x10, 0x27, 0x10, 0x27, 0, 0, 0]
        + [0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 0x44, 0x01, 0, 0x3B]
      let size = try header(screenLies)?.pixelSize
      #expect(size == PixelSize(width: 1, height: 1))
    }
  }

  /// Real files from ffmpeg: an animated GIF and WebP are, a one-frame GIF and a PNG are not.
  @Test func realFilesAreToldApart() async throws {
    try await TemporaryFolder.with(prefix: "tessera-animated") { folder in
      func bytes(_ name: String, frames: Int) throws -> [UInt8] {
        let path = folder.appendingPathComponent(name).path
        if frames > 1 {
          try TestMedia.animation(path, frames: frames)
        } else {
          try TestMedia.make(path, from: "testsrc=size=64x48", arguments: ["-frames:v", "1"])
        }
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
      }
      let animated = [try bytes("a.gif", frames: 5), try bytes("a.webp", frames: 5)]
      let still = [
        try bytes("still.gif", frames: 1), try bytes("still.webp", frames: 1),
        try bytes("still.png", frames: 1),
      ]
      #expect(animated.map { AnimatedImage.isAnimated($0, isWholeFile: true) } == [true, true])
      #expect(
        still.map { AnimatedImage.isAnimated($0, isWholeFile: true) } == [false, false, false])
    }
  }
}
