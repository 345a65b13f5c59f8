import Testing

@testable import TesseraTerminal

@Suite struct GraphemeWidthTests {
  @Test(
    arguments: [
      ("a", 1), ("日", 2), ("한", 2), ("ｱ", 1), ("Ａ", 2), ("🙂", 2), ("❤", 1), ("❤️", 2),
      ("1️⃣", 2), ("👩‍💻", 2), ("👨‍👩‍👧‍👦", 2), ("👍🏽", 2), ("🇯🇵", 2), ("🏴󠁧󠁢󠁥󠁮󠁧󠁿", 2),
      ("e\u{301}", 1), ("\u{301}", 0), ("\u{200B}", 0), ("\u{200D}", 0), ("\u{FEFF}", 0),
      ("\u{AD}", 0), ("\u{202E}", 0), ("\u{1B}", 0), ("\r\n", 0), ("▀", 1), ("…", 1),
      ("\u{10EEEE}\u{305}\u{30D}", 1),
    ] as [(Character, Int)])
  func columns(grapheme: Character, width: Int) {
    #expect(GraphemeWidth.of(grapheme) == width)
  }

  @Test func aStringIsTheSumOfItsGraphemes() {
    #expect(GraphemeWidth.columns(of: "ab日本🇯🇵e\u{301}\u{200B}") == 9)
  }

  @Test func theFrameBufferPlacesTextByTheSameWidths() {
    var frame = FrameBuffer(width: 12, height: 1)
    let end = frame.put("🇯🇵a\u{200B}b👩‍💻c", x: 0, y: 0)
    #expect(end == 7)
    #expect(frame[0, 0].text == "🇯🇵")
    #expect(frame[1, 0].isContinuation)
    #expect(frame[2, 0].text == "a")
    #expect(frame[3, 0].text == "b")
    #expect(frame[4, 0].text == "👩‍💻")
    #expect(frame[6, 0].text == "c")
    // Off the clip's rows, the returned column is the same: columns, not Characters.
    var other = FrameBuffer(width: 12, height: 1)
    #expect(other.put("日本語", x: 1, y: 5) == 7)
  }
}
