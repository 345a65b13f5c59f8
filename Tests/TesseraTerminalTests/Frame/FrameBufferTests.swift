import Testing

@testable import TesseraTerminal

@Suite struct FrameBufferTests {
  @Test func putClipsToTheRectAndTheBuffer() {
    var frame = FrameBuffer(width: 10, height: 3)
    let end = frame.put("hello world", x: 2, y: 1, clip: CellRect(x: 0, y: 0, width: 7, height: 3))
    #expect(frame.text(ofRow: 1) == "  hello   ")
    #expect(end == 7)
    frame.put("abc", x: -1, y: 0)
    #expect(frame.text(ofRow: 0) == "bc        ")
    frame.put("zzz", x: 0, y: 5)
    #expect(frame.text(ofRow: 2) == "          ")
  }

  @Test func wideGraphemesTakeTwoCellsAndNeverHangOffTheClip() {
    var frame = FrameBuffer(width: 5, height: 1)
    frame.put("日本x", x: 0, y: 0)
    #expect(frame[0, 0].text == "日")
    #expect(frame[1, 0].isContinuation)
    #expect(frame[2, 0].text == "本")
    #expect(frame[4, 0].text == "x")
    var narrow = FrameBuffer(width: 3, height: 1)
    narrow.put("a日", x: 1, y: 0)
    #expect(narrow.text(ofRow: 0) == " a ")
  }

  @Test func overwritingHalfAWideGraphemeBlanksTheOtherHalf() {
    var frame = FrameBuffer(width: 4, height: 1)
    frame.put("日", x: 0, y: 0)
    frame.put("x", x: 1, y: 0)
    #expect(frame.text(ofRow: 0) == " x  ")
    #expect(!frame.cells.contains { $0.isContinuation })
  }

  @Test func controlCharactersNeverReachTheFrame() {
    var frame = FrameBuffer(width: 6, height: 1)
    frame.put("a\u{1B}[2Jb", x: 0, y: 0)
    #expect(frame.text(ofRow: 0) == "a[2Jb ")
  }

  @Test func fillAndBox() {
    var frame = FrameBuffer(width: 5, height: 4)
    let red = CellStyle(background: .rgb(255, 0, 0))
    frame.fill(CellRect(x: 3, y: 2, width: 9, height: 9), with: Cell("#", style: red))
    #expect(frame[4, 3] == Cell("#", style: red))
    #expect(frame[2, 3] == .blank)
    frame.box(CellRect(x: 0, y: 0, width: 4, height: 3))
    #expect(frame.text(ofRow: 0) == "┌──┐ ")
    #expect(frame.text(ofRow: 1) == "│  │ ")
    #expect(frame.text(ofRow: 2) == "└──┘#")
  }

  @Test func outOfBoundsAccessIsHarmless() {
    var frame = FrameBuffer(width: 2, height: 2)
    frame[5, -1] = Cell("x")
    #expect(frame[5, -1] == .blank)
    #expect(frame.cells.allSatisfy { $0 == .blank })
  }
}
