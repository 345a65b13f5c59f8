import TesseraUtilities

/// Text from outside (titles, captions, author names, error messages from a server) made safe
/// to put on a terminal: the one place that decides what may reach a cell.
///
/// Removed: C0 and C1 controls, ESC and DEL (a title carrying ESC could otherwise drive the
/// terminal), and the bidi controls — overrides, embeddings, isolates and marks (U+202A–U+202E,
/// U+2066–U+2069, U+200E, U+200F, U+061C) — with which a caption could display reversed, or
/// reorder the text drawn after it. Line and paragraph breaks, tabs and form feeds become
/// spaces (or newlines, for callers that lay out lines themselves); CR LF counts once. A byte
/// of a file name that is not UTF-8 (`FileSystemName`'s escape) shows as U+FFFD.
public enum TerminalText {
  /// `text` with every unsafe scalar removed or replaced as described above. Returns `text`
  /// itself, without copying, when nothing needs to change (the common case).
  ///
  /// - Parameter keepingNewlines: keep line breaks as "\n" (for ``TextLayout/wrap(_:columns:maxLines:)``);
  ///   otherwise they become spaces.
  /// - Complexity: O(n) in the text's length.
  public static func sanitized(_ text: String, keepingNewlines: Bool = false) -> String {
    guard text.unicodeScalars.contains(where: needsChange) else { return text }
    var result = String.UnicodeScalarView()
    var previousWasCarriageReturn = false
    for scalar in text.unicodeScalars {
      defer { previousWasCarriageReturn = scalar.value == 0x0D }
      if scalar.value == 0x0A, previousWasCarriageReturn { continue }
      switch scalar.value {
      case 0x0A, 0x0D, 0x85, 0x2028, 0x2029:
        result.append(keepingNewlines ? "\n" : " ")
      case 0x09, 0x0B, 0x0C:
        result.append(" ")
      default:
        if FileSystemName.isEscape(scalar) {
          result.append("\u{FFFD}")
        } else if !isRemoved(scalar.value) {
          result.append(scalar)
        }
      }
    }
    return String(result)
  }

  /// `text` on one line with each unsafe scalar (a control, a line break, a bidi control)
  /// shown as "?", as `ls -q` shows a name: for a line a script cuts (`tessera info`), where
  /// a removed character would hide that the name holds one. O(n).
  public static func questionMarked(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: needsChange) else { return text }
    return String(
      String.UnicodeScalarView(
        text.unicodeScalars.map {
          FileSystemName.isEscape($0) ? "\u{FFFD}" : needsChange($0) ? "?" : $0
        }))
  }

  /// Whether a grapheme must not reach the terminal as it is (a cell set directly, not
  /// through ``FrameBuffer/put(_:x:y:style:clip:)``): it holds a control or a bidi control.
  static func isUnsafe(_ grapheme: Character) -> Bool {
    grapheme.unicodeScalars.contains { isRemoved($0.value) || isLineBreak($0.value) }
  }

  private static func needsChange(_ scalar: Unicode.Scalar) -> Bool {
    isRemoved(scalar.value) || isLineBreak(scalar.value) || FileSystemName.isEscape(scalar)
  }

  private static func isLineBreak(_ value: UInt32) -> Bool {
    (0x09...0x0D).contains(value) || value == 0x85 || value == 0x2028 || value == 0x2029
  }

  /// C0 (but the whitespace handled above), DEL, C1, and the bidi controls.
  private static func isRemoved(_ value: UInt32) -> Bool {
    if value < 0x20 { return !(0x09...0x0D).contains(value) }
    if value < 0x7F { return false }
    if value < 0xA0 { return value != 0x85 }
    return isBidiControl(value)
  }

  static func isBidiControl(_ value: UInt32) -> Bool {
    value == 0x061C || value == 0x200E || value == 0x200F || (0x202A...0x202E).contains(value)
      || (0x2066...0x2069).contains(value)
  }
}
