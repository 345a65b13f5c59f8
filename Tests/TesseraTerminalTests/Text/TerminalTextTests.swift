import TesseraUtilities
import Testing

@testable import TesseraTerminal

@Suite struct TerminalTextTests {
  static let bidiControls: [Unicode.Scalar] = [
    "\u{202A}", "\u{202B}", "\u{202C}", "\u{202D}", "\u{202E}", "\u{2066}", "\u{2067}",
    "\u{2068}", "\u{2069}", "\u{200E}", "\u{200F}", "\u{061C}",
  ]

  @Test func bidiOverridesEmbeddingsIsolatesAndMarksAreRemoved() {
    for control in Self.bidiControls {
      #expect(TerminalText.sanitized("abc\(control)def") == "abcdef", "U+\(control.value)")
    }
    // The classic: a file name that displays as "photo_gpj.exe" reversed.
    #expect(TerminalText.sanitized("photo_\u{202E}gpj.exe") == "photo_gpj.exe")
  }

  @Test func controlsEscapeAndDeleteAreRemoved() {
    #expect(TerminalText.sanitized("a\u{1B}[2Jb") == "a[2Jb")
    #expect(TerminalText.sanitized("a\u{1B}]0;pwned\u{07}b") == "a]0;pwnedb")
    #expect(TerminalText.sanitized("x\u{00}\u{08}\u{7F}\u{9B}31m\u{90}y") == "x31my")
  }

  @Test func lineBreaksAndTabsBecomeSpacesOrNewlines() {
    #expect(TerminalText.sanitized("one\ttwo\r\nthree\u{2028}four") == "one two three four")
    #expect(
      TerminalText.sanitized("one\r\ntwo\rthree\u{85}four", keepingNewlines: true)
        == "one\ntwo\nthree\nfour")
  }

  @Test func safeTextIsReturnedUnchanged() {
    let text = "Harbour 日本 👩‍💻 🇯🇵 🏴󠁧󠁢󠁥󠁮󠁧󠁿 é café"
    #expect(TerminalText.sanitized(text) == text)
  }

  @Test func bidiControlsNeverReachTheFrameOrTheTerminal() {
    var frame = FrameBuffer(width: 12, height: 2)
    frame.put("ab\u{202E}cd\u{2066}e\u{1B}f", x: 0, y: 0)
    #expect(frame.text(ofRow: 0) == "abcdef      ")
    // A cell set directly, bypassing put: the renderer still never writes the control.
    frame[0, 1] = Cell("\u{202E}")
    frame[1, 1] = Cell("\u{1B}")
    let bytes = TerminalRenderer(graphics: .blocks).render(frame)
    let text = String(decoding: bytes, as: UTF8.self)
    #expect(!text.unicodeScalars.contains { TerminalText.isBidiControl($0.value) })
    #expect(text.contains("\u{FFFD}\u{FFFD}"))
  }

  /// A name on one line, each unsafe character a "?" in its place (nothing removed, so the
  /// reader sees there was one): C0, DEL, C1 (U+0085, U+009B CSI), line breaks, bidi controls.
  @Test func questionMarksStandForEveryUnsafeCharacter() {
    #expect(TerminalText.questionMarked("IMG_0001.jpg") == "IMG_0001.jpg")
    #expect(TerminalText.questionMarked("a\tb\nc\u{7F}") == "a?b?c?")
    #expect(TerminalText.questionMarked("x\u{9B}31m\u{85}y") == "x?31m?y")
    #expect(TerminalText.questionMarked("gpj.\u{202E}exe") == "gpj.?exe")
    #expect(TerminalText.questionMarked("\u{2066}ok\u{2069}\u{2028}") == "?ok??")
    #expect(TerminalText.questionMarked("été 📷") == "été 📷")
  }

  /// A byte of a file name that is not UTF-8 shows as U+FFFD, on a tile and in `info`.
  @Test func aByteOfANameThatIsNotUTF8ShowsAsTheReplacementCharacter() {
    let name = FileSystemName.string([0x63, 0x61, 0x66, 0xE9, 0x0A])
    #expect(TerminalText.sanitized(name) == "caf\u{FFFD} ")
    #expect(TerminalText.questionMarked(name) == "caf\u{FFFD}?")
  }
}
