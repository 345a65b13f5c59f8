import TesseraUtilities
import Testing

@testable import TesseraTerminal

@Suite struct ScrollDetectorTests {
  /// A list of numbered rows scrolled to `offset`, with a fixed status line at the bottom.
  static func list(offset: Int, width: Int = 30, height: Int = 12) -> FrameBuffer {
    var frame = FrameBuffer(width: width, height: height)
    for row in 0..<(height - 1) {
      let item = offset + row
      frame.put(
        "item \(item)", x: item % 5, y: row,
        style: CellStyle(background: .rgb(UInt8(item % 256), 0, 0)))
    }
    frame.put("status", x: 0, y: height - 1, style: CellStyle(attributes: [.inverse]))
    return frame
  }

  @Test func findsTheShiftAndItsRegion() {
    let scroll = ScrollDetector.detect(previous: Self.list(offset: 0), next: Self.list(offset: 1))
    #expect(scroll == ScrollDetector.Scroll(top: 0, bottom: 10, distance: 1))
    let back = ScrollDetector.detect(previous: Self.list(offset: 5), next: Self.list(offset: 2))
    #expect(back == ScrollDetector.Scroll(top: 0, bottom: 10, distance: -3))
    #expect(
      ScrollDetector.detect(previous: Self.list(offset: 0), next: Self.list(offset: 0)) == nil)
    #expect(
      ScrollDetector.detect(previous: Self.list(offset: 0), next: Self.list(offset: 40)) == nil)
  }

  @Test func scrollingWritesOnlyTheNewRowAndReproducesTheFrame() {
    var differ = FrameDiffer()
    var terminal = VirtualTerminal(width: 30, height: 12)
    var out = ByteWriter()
    differ.diff(previous: nil, next: Self.list(offset: 0), scrolling: true, into: &out)
    terminal.apply(out.bytes)
    var scrolled = ByteWriter()
    let written = differ.diff(
      previous: Self.list(offset: 0), next: Self.list(offset: 1), scrolling: true, into: &scrolled)
    terminal.apply(scrolled.bytes)
    #expect(terminal.scrolls == 1)
    #expect(terminal.screen == Self.list(offset: 1))
    #expect(written == "item 11".count)
    var plain = FrameDiffer(cursor: nil, pen: nil)
    var unscrolled = ByteWriter()
    plain.diff(previous: Self.list(offset: 0), next: Self.list(offset: 1), into: &unscrolled)
    #expect(scrolled.count * 5 < unscrolled.count)
  }

  @Test func randomScrollsRoundTripThroughTheVirtualTerminal() {
    var random = SplitMix64(seed: 11)
    var differ = FrameDiffer()
    var terminal = VirtualTerminal(width: 30, height: 12)
    var previous: FrameBuffer?
    var offset = 50
    for _ in 0..<60 {
      offset = max(0, offset + Int.random(in: -4...4, using: &random))
      var frame = Self.list(offset: offset)
      if Bool.random(using: &random) {
        frame.put(
          "x", x: Int.random(in: 0..<30, using: &random), y: Int.random(in: 0..<12, using: &random))
      }
      var out = ByteWriter()
      differ.diff(previous: previous, next: frame, scrolling: true, into: &out)
      terminal.apply(out.bytes)
      #expect(terminal.screen == frame)
      #expect(terminal.unknown.isEmpty)
      previous = frame
    }
    #expect(terminal.scrolls > 10)
  }
}
