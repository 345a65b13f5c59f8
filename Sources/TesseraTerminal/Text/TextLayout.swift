/// Lays text out in terminal columns: wrapping and truncation that count what the terminal
/// draws (``GraphemeWidth``), not Characters, so a caption in Chinese, or with emoji, flags,
/// ZWJ sequences or combining marks, never spills past its tile. Text is sanitized first
/// (``TerminalText``), so what is measured is exactly what the frame buffer draws.
public enum TextLayout {
  /// The ellipsis that marks cut text: one column.
  public static let ellipsis: Character = "…"

  /// `text` broken into lines of at most `columns` columns each, at spaces where possible
  /// (runs of spaces collapse); newlines start new lines; a word longer than a line is broken
  /// between graphemes. A grapheme wider than the whole line (a wide character when `columns`
  /// is 1) becomes ``ellipsis``. With more lines than `maxLines`, the first `maxLines` are
  /// kept and the last of them ends in ``ellipsis``.
  ///
  /// - Complexity: O(n) in the part of the text laid out: it stops after `maxLines` lines.
  public static func wrap(_ text: String, columns: Int, maxLines: Int = .max) -> [String] {
    guard columns > 0, maxLines > 0 else { return [] }
    var lines = LineBreaker(columns: columns, limit: maxLines == .max ? .max : maxLines + 1)
    let clean = TerminalText.sanitized(text, keepingNewlines: true)
    for paragraph in clean.split(separator: "\n", omittingEmptySubsequences: true) {
      for word in paragraph.split(separator: " ", omittingEmptySubsequences: true) {
        lines.add(word)
        if lines.isFull { break }
      }
      lines.endParagraph()
      if lines.isFull { break }
    }
    var result = lines.lines
    if result.count > maxLines {
      result.removeLast(result.count - maxLines)
      result[maxLines - 1] = withEllipsis(result[maxLines - 1], columns: columns)
    }
    return result
  }

  /// `text` on one line of at most `columns` columns: as it is when it fits, else cut between
  /// graphemes and ended with ``ellipsis``. Newlines become spaces.
  ///
  /// - Complexity: O(n) to sanitize, then O(graphemes read) to measure: it stops at the cut.
  public static func truncate(_ text: String, columns: Int) -> String {
    guard columns > 0 else { return "" }
    let clean = TerminalText.sanitized(text)
    let whole = prefix(clean, columns: columns)
    if whole.endIndex == clean.endIndex { return clean }
    return String(prefix(clean, columns: columns - 1)) + String(ellipsis)
  }

  /// `line` ended with an ellipsis, cut first if there is no room for it.
  static func withEllipsis(_ line: String, columns: Int) -> String {
    String(prefix(line, columns: columns - 1)) + String(ellipsis)
  }

  /// The longest prefix of `text` that takes at most `columns` columns.
  ///
  /// - Complexity: O(graphemes read): it stops where the prefix ends.
  static func prefix(_ text: String, columns: Int) -> Substring {
    var used = 0
    var index = text.startIndex
    while index < text.endIndex {
      let width = GraphemeWidth.of(text[index])
      if used + width > columns { break }
      used += width
      index = text.index(after: index)
    }
    return text[..<index]
  }
}

/// Greedy line filling for ``TextLayout/wrap(_:columns:maxLines:)``.
private struct LineBreaker {
  let columns: Int
  let limit: Int
  private(set) var lines: [String] = []
  private var line = ""
  private var lineWidth = 0

  init(columns: Int, limit: Int) {
    self.columns = columns
    self.limit = limit
  }

  var isFull: Bool { lines.count >= limit }

  mutating func add(_ word: Substring) {
    let width = GraphemeWidth.columns(of: word)
    if lineWidth > 0, lineWidth + 1 + width <= columns {
      line += " "
      line += word
      lineWidth += 1 + width
      return
    }
    if lineWidth > 0 { finishLine() }
    if width <= columns {
      line = String(word)
      lineWidth = width
      return
    }
    // Longer than a line: break it between graphemes.
    for grapheme in word {
      if isFull { return }
      var piece = grapheme
      var pieceWidth = GraphemeWidth.of(grapheme)
      if pieceWidth > columns {
        piece = TextLayout.ellipsis
        pieceWidth = 1
      }
      if lineWidth + pieceWidth > columns { finishLine() }
      line.append(piece)
      lineWidth += pieceWidth
    }
  }

  mutating func endParagraph() {
    if lineWidth > 0 {
      finishLine()
    } else {
      line = ""  // Nothing visible: no line.
    }
  }

  private mutating func finishLine() {
    guard !isFull else { return }
    lines.append(line)
    line = ""
    lineWidth = 0
  }
}
