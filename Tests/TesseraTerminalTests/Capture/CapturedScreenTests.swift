import TesseraUtilities
import Testing

@testable import TesseraTerminal

@Suite struct CapturedScreenTests {
  /// What tmux 3.3a's `capture-pane -p -e` printed for a pane showing two half blocks, text
  /// with bold, a wide grapheme, and a line of coloured spaces (which tmux trims).
  static let tmuxCapture =
    "\u{1B}[38;2;255;0;0m\u{1B}[48;2;0;0;255m▀\u{1B}[38;2;1;2;3m▀\u{1B}[39m\u{1B}[49m ab"
    + "\u{1B}[1mB\u{1B}[0m\u{1B}[39m\u{1B}[49m 日x\n\u{1B}[48;2;10;20;30m\n\n\n"

  @Test func parsesATmuxCapture() {
    let screen = CapturedScreen(parsing: Self.tmuxCapture, width: 20)
    #expect(screen.width == 20)
    #expect(screen.height == 4)
    #expect(screen.text(ofRow: 0).hasPrefix("▀▀ abB 日x"))
    let first = screen.halfBlockPixels(x: 0, y: 0)
    #expect(first?.upper == RGB(255, 0, 0))
    #expect(first?.lower == RGB(0, 0, 255))
    #expect(screen.halfBlockPixels(x: 1, y: 0)?.upper == RGB(1, 2, 3))
    #expect(screen.halfBlockPixels(x: 1, y: 0)?.lower == RGB(0, 0, 255))
    #expect(screen[3, 0].style == .plain)
    #expect(screen[5, 0].style.attributes == [.bold])
    #expect(screen[7, 0].text == "日")
    #expect(screen[8, 0].isContinuation)
    #expect(screen[9, 0].text == "x")
    #expect(screen.halfBlockPixels(x: 3, y: 0) == nil)
  }

  @Test func roundTripsARenderedHalfBlockImage() throws {
    let image = HalfBlockImage(try HalfBlockImageTests.stripes(), columns: 3, rows: 2)
    var frame = FrameBuffer(width: 3, height: 2)
    image.draw(into: &frame, at: (x: 0, y: 0))
    // Dump the frame as capture-pane does: SGR where the pen changes, one line per row.
    var text = ByteWriter()
    var pen: CellStyle? = nil
    for y in 0..<2 {
      for x in 0..<3 {
        SGR.transition(from: pen, to: frame[x, y].style, into: &text)
        pen = frame[x, y].style
        text.append(frame[x, y].text)
      }
      text.append(0x0A)
    }
    let screen = CapturedScreen(parsing: String(decoding: text.bytes, as: UTF8.self))
    #expect(screen.frame == frame)
  }

  @Test func indexedAndColonColours() {
    let screen = CapturedScreen(parsing: "\u{1B}[38;5;196;48:2::1:2:3mA\u{1B}[31;102mB")
    #expect(screen[0, 0].style.foreground == .rgb(255, 0, 0))
    #expect(screen[0, 0].style.background == .rgb(1, 2, 3))
    #expect(screen[1, 0].style.foreground == .rgb(205, 0, 0))
    #expect(screen[1, 0].style.background == .rgb(0, 255, 0))
  }

  /// Random ASCII (controls included, ESC and newline left out) after a broken 24-bit colour
  /// sequence reads exactly as a terminal would: the sequence runs to the first final byte
  /// (0x40–0x7E), every printable character after it is one cell, in order, and the controls
  /// are dropped. Checked against that model, not just for not trapping.
  @Test func garbageAfterABrokenSequenceReadsAsATerminalWould() {
    var random = SplitMix64(seed: 3)
    for _ in 0..<300 {
      let garbage = (0..<40).map { _ in
        var byte = UInt8.random(in: 0...127, using: &random)
        while byte == 0x1B || byte == 0x0A { byte = UInt8.random(in: 0...127, using: &random) }
        return byte
      }
      let text = String(decoding: garbage, as: UTF8.self)
      let screen = CapturedScreen(parsing: "\u{1B}[38;2;" + text)
      let afterSequence = garbage.drop { !(0x40...0x7E).contains($0) }.dropFirst()
      let expected = String(
        decoding: afterSequence.filter { (0x20...0x7E).contains($0) }, as: UTF8.self)
      if expected.isEmpty {
        #expect(screen.height == 0, "\(garbage)")
      } else {
        #expect(screen.height == 1, "\(garbage)")
        #expect(screen.text(ofRow: 0) == expected, "\(garbage)")
      }
    }
  }

  /// Any garbage at all (ESC, strings, newlines): the parser never loses its way for good.
  /// Once a BEL (ending any string) and two resets (the first may end a sequence left open)
  /// follow, the next line reads exactly as written, in the plain style.
  @Test func afterAnyGarbageTheNextLineReadsAsWritten() {
    var random = SplitMix64(seed: 5)
    for _ in 0..<300 {
      let garbage = (0..<40).map { _ in UInt8.random(in: 0...127, using: &random) }
      let text = String(decoding: garbage, as: UTF8.self)
      let recover = "\u{07}\u{1B}[0m\u{1B}[0m\n"
      let screen = CapturedScreen(parsing: "\u{1B}[38;2;" + text + recover + "after")
      let last = screen.height - 1
      #expect(last >= 0, "\(garbage)")
      #expect(screen.text(ofRow: last).hasPrefix("after"), "\(garbage)")
      #expect((0..<5).allSatisfy { screen[$0, last].style == .plain }, "\(garbage)")
      #expect((5..<screen.width).allSatisfy { screen[$0, last].text == " " }, "\(garbage)")
    }
  }
}
