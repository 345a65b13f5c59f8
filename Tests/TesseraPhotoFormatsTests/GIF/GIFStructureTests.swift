import Testing

@testable import TesseraPhotoFormats

@Suite(.timeLimit(.minutes(1))) struct GIFStructureTests {
  /// A GIF whose screen is `screen` holding one image per rectangle, then the trailer (or
  /// none when `trailer` is false).
  static func gif(
    screen: (Int, Int), frames: [(left: Int, top: Int, width: Int, height: Int)],
    loops: Bool = false, trailer: Bool = true
  ) -> [UInt8] {
    func u16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
    var bytes = Array("GIF89a".utf8) + u16(screen.0) + u16(screen.1) + [0, 0, 0]
    if loops { bytes += [0x21, 0xFF, 11] + Array("NETSCAPE2.0".utf8) + [3, 1, 0, 0, 0] }
    for frame in frames {
      bytes += [0x2C] + u16(frame.left) + u16(frame.top) + u16(frame.width) + u16(frame.height)
      bytes += [0, 2, 2, 0x44, 0x01, 0]
    }
    return bytes + (trailer ? [0x3B] : [])
  }

  @Test func aScreenThatClaimsMoreThanItsFramesIsShownAtTheFramesSize() throws {
    let lies = try #require(
      GIFStructure(Self.gif(screen: (10_000, 10_000), frames: [(0, 0, 1, 1)])))
    #expect(lies.screenWidth == 10_000)
    #expect(lies.end == .trailer)
    #expect(lies.shownSize == (1, 1))
    // Frames placed across the screen: their far edges.
    let spread = try #require(
      GIFStructure(Self.gif(screen: (500, 400), frames: [(0, 0, 10, 10), (90, 40, 30, 20)])))
    #expect(spread.shownSize == (120, 60))
  }

  @Test func anHonestScreenAndACutWalkKeepTheScreensSize() throws {
    let honest = try #require(GIFStructure(Self.gif(screen: (64, 48), frames: [(0, 0, 64, 48)])))
    #expect(honest.shownSize == (64, 48))
    // A frame wider than the screen does not grow it.
    let wide = try #require(GIFStructure(Self.gif(screen: (64, 48), frames: [(10, 0, 64, 48)])))
    #expect(wide.shownSize == (64, 48))
    // A prefix that ends after a small first frame: the frames are not all seen.
    let cut = try #require(
      GIFStructure(Self.gif(screen: (640, 480), frames: [(0, 0, 8, 8)], trailer: false)))
    #expect(cut.end == .bytesEnded)
    #expect(cut.shownSize == (640, 480))
  }

  @Test func aLoopBlockAloneAnimatesOnlyAPrefix() throws {
    // 44 bytes: a header, a loop extension, no image.
    let empty = Self.gif(screen: (8, 8), frames: [], loops: true, trailer: false)
    let walk = try #require(GIFStructure(empty))
    #expect(walk.frames.isEmpty && walk.loops && walk.end == .bytesEnded)
    #expect(!walk.isAnimated(isWholeFile: true))
    #expect(walk.isAnimated(isWholeFile: false))
    let single = try #require(
      GIFStructure(Self.gif(screen: (8, 8), frames: [(0, 0, 8, 8)], loops: true)))
    #expect(!single.isAnimated(isWholeFile: true) && !single.isAnimated(isWholeFile: false))
    let two = try #require(
      GIFStructure(Self.gif(screen: (8, 8), frames: [(0, 0, 8, 8), (0, 0, 8, 8)])))
    #expect(two.isAnimated(isWholeFile: true))
  }

  @Test func notAGifIsNil() {
    #expect(GIFStructure(Array("GIF89".utf8)) == nil)
    #expect(GIFStructure(Array(repeating: 0, count: 64)) == nil)
  }
}
