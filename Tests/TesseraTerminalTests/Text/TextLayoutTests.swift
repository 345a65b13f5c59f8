import TesseraUtilities
import Testing

@testable import TesseraTerminal

@Suite struct TextLayoutTests {
  static let words = [
    "harbour", "日本語のキャプション", "👩‍💻", "🇯🇵🇫🇷", "e\u{301}te\u{301}", "a\u{200B}b", "❤️❤",
    "x", "東京", "supercalifragilistic", "🏴󠁧󠁢󠁥󠁮󠁧󠁿", "ｱｲｳ", "\u{202E}rtl", "1️⃣2️⃣",
  ]

  static func randomText(_ random: inout SplitMix64) -> String {
    (0..<Int.random(in: 0..<14, using: &random))
      .map { _ in words.randomElement(using: &random)! }
      .joined(separator: Bool.random(using: &random) ? " " : "\n")
  }

  /// Every grapheme but spaces, as the layout should keep them.
  static func visible(_ text: String) -> [Character] {
    TerminalText.sanitized(text).filter { $0 != " " && $0 != "\n" && GraphemeWidth.of($0) > 0 }
  }

  @Test func wrappedLinesNeverExceedTheColumnsAndKeepEveryGrapheme() {
    var random = SplitMix64(seed: 7)
    for columns in [2, 3, 5, 8, 13, 30] {
      for _ in 0..<60 {
        let text = Self.randomText(&random)
        let lines = TextLayout.wrap(text, columns: columns)
        for line in lines {
          #expect(GraphemeWidth.columns(of: line) <= columns, "\(columns): \(lines)")
          #expect(GraphemeWidth.columns(of: line) > 0)
        }
        #expect(Self.visible(lines.joined()) == Self.visible(text), "\(columns): \(text)")
      }
    }
  }

  @Test func oneColumnReplacesWideGraphemesAndStillFits() {
    let lines = TextLayout.wrap("a日b", columns: 1)
    #expect(lines == ["a", "…", "b"])
  }

  @Test func wideTextWrapsByColumnsNotCharacters() {
    #expect(TextLayout.wrap("日本語のテキスト", columns: 6) == ["日本語", "のテキ", "スト"])
    #expect(TextLayout.wrap("日本語のテキスト", columns: 5) == ["日本", "語の", "テキ", "スト"])
    #expect(TextLayout.wrap("🇯🇵 🇫🇷 🇩🇪", columns: 5) == ["🇯🇵 🇫🇷", "🇩🇪"])
    #expect(TextLayout.wrap("one two\nthree", columns: 20) == ["one two", "three"])
  }

  @Test func maxLinesEndsTheLastLineWithAnEllipsis() {
    let lines = TextLayout.wrap("alpha beta gamma delta epsilon", columns: 10, maxLines: 2)
    #expect(lines == ["alpha beta", "gamma…"])
    let full = TextLayout.wrap("alphabeta gamma delta", columns: 9, maxLines: 1)
    #expect(full == ["alphabet…"])
    let wide = TextLayout.wrap("日本語 日本語 日本語", columns: 6, maxLines: 2)
    #expect(wide == ["日本語", "日本…"])
    #expect(wide.allSatisfy { GraphemeWidth.columns(of: $0) <= 6 })
    #expect(TextLayout.wrap("short", columns: 10, maxLines: 2) == ["short"])
    #expect(TextLayout.wrap("anything", columns: 10, maxLines: 0) == [])
  }

  @Test func aHugeCaptionStopsAfterMaxLines() {
    let huge = String(repeating: "日本語 ", count: 200_000)
    let lines = TextLayout.wrap(huge, columns: 10, maxLines: 3)
    #expect(lines.count == 3)
    #expect(lines.last?.last == TextLayout.ellipsis)
  }

  @Test func truncateCountsColumns() {
    #expect(TextLayout.truncate("harbour", columns: 7) == "harbour")
    #expect(TextLayout.truncate("harbour", columns: 5) == "harb…")
    #expect(TextLayout.truncate("harbour", columns: 0) == "")
    #expect(TextLayout.truncate("日本語テキスト", columns: 5) == "日本…")
    #expect(TextLayout.truncate("日本語テキスト", columns: 6) == "日本…")
    #expect(TextLayout.truncate("日本", columns: 4) == "日本")
    #expect(TextLayout.truncate("👩‍💻👩‍💻👩‍💻", columns: 4) == "👩‍💻…")
    #expect(TextLayout.truncate("e\u{301}e\u{301}e\u{301}", columns: 2) == "e\u{301}…")
    #expect(TextLayout.truncate("a\u{202E}bc", columns: 3) == "abc")
    #expect(TextLayout.truncate("日", columns: 1) == "…")
    var random = SplitMix64(seed: 3)
    for columns in 1...12 {
      for _ in 0..<30 {
        let text = Self.randomText(&random)
        #expect(GraphemeWidth.columns(of: TextLayout.truncate(text, columns: columns)) <= columns)
      }
    }
  }

  @Test func aWideCaptionStaysInsideItsTileOnTheTerminal() {
    // Two tiles side by side, 6 columns each; the left one's caption is Japanese.
    var frame = FrameBuffer(width: 12, height: 3)
    let left = CellRect(x: 0, y: 0, width: 6, height: 3)
    let right = CellRect(x: 6, y: 0, width: 6, height: 3)
    for row in 0..<3 { frame.put("right\(row)", x: 6, y: row, clip: right) }
    for (row, line) in TextLayout.wrap("日本語のキャプション", columns: 5, maxLines: 3).enumerated() {
      frame.put(line, x: 0, y: row, clip: left)
    }
    var terminal = VirtualTerminal(width: 12, height: 3)
    terminal.apply(TerminalRenderer(graphics: .blocks).render(frame))
    for row in 0..<3 {
      #expect(terminal.screen.text(ofRow: row).hasSuffix("right\(row)"), "row \(row)")
    }
    #expect(terminal.screen == frame)
  }
}
