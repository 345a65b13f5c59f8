/// What a terminal, known by its name, does that its answers do not say: the one table of
/// terminal quirks, which capability detection and the renderer read (a new terminal is a
/// row). Names are matched as XTVERSION, `TERM`, `TERM_PROGRAM` or `LC_TERMINAL` give them,
/// lower-cased, by substring.
///
/// - Complexity: O(rows × names) per look-up; the table has a handful of rows.
public struct TerminalQuirks: Sendable, Hashable {
  /// It speaks kitty's graphics protocol (chosen by its name before any query is answered).
  public var speaksKitty = false
  /// It shows iTerm2's inline images (OSC 1337), and that is the best of what it speaks:
  /// chosen before the kitty query (WezTerm answers that too, but draws iTerm2's images
  /// fully; its kitty graphics lack placeholders and parts of placement).
  public var prefersITerm2 = false
  /// It draws kitty's Unicode placeholders whatever its version (Ghostty); kitty itself does
  /// from 0.28 (``drawsKittyPlaceholders(version:)``).
  public var drawsKittyPlaceholdersAlways = false
  /// It moves sixel pixels with the text when a region scrolls, as a VT340 does (xterm
  /// checked by eye under Xvfb, `xterm -ti vt340`; mlterm and foot by their documentation):
  /// a moved sixel tile is then scrolled, not drawn again.
  public var movesSixelWithText = false

  public init() {}

  /// The known terminals, one row each: the substring of its name, what it does.
  static let rows: [(name: String, quirks: TerminalQuirks)] = [
    ("kitty", TerminalQuirks(speaksKitty: true)),
    ("ghostty", TerminalQuirks(speaksKitty: true, drawsKittyPlaceholdersAlways: true)),
    // Konsole keeps iTerm2 images under text written over them (seen alone and in tmux), so
    // it keeps kitty's protocol though it speaks both.
    ("konsole", TerminalQuirks(speaksKitty: true)),
    ("iterm", TerminalQuirks(prefersITerm2: true)),
    ("wezterm", TerminalQuirks(prefersITerm2: true)),
    ("vscode", TerminalQuirks(prefersITerm2: true)),
    ("xterm", TerminalQuirks(movesSixelWithText: true)),
    // mlterm also paints a sixel's last band of six rows whole, past the image's last row:
    // every terminal is sent whole bands (`InlineImageLayer.sixelRows`), so no row says it.
    ("mlterm", TerminalQuirks(movesSixelWithText: true)),
    ("foot", TerminalQuirks(movesSixelWithText: true)),
  ]

  private init(
    speaksKitty: Bool = false, prefersITerm2: Bool = false,
    drawsKittyPlaceholdersAlways: Bool = false, movesSixelWithText: Bool = false
  ) {
    self.speaksKitty = speaksKitty
    self.prefersITerm2 = prefersITerm2
    self.drawsKittyPlaceholdersAlways = drawsKittyPlaceholdersAlways
    self.movesSixelWithText = movesSixelWithText
  }

  /// The quirks of every row one of `names` matches, together.
  public init(names: [String]) {
    self.init()
    let lowered = names.map { $0.lowercased() }.filter { !$0.isEmpty }
    for row in Self.rows where lowered.contains(where: { $0.contains(row.name) }) {
      speaksKitty = speaksKitty || row.quirks.speaksKitty
      prefersITerm2 = prefersITerm2 || row.quirks.prefersITerm2
      drawsKittyPlaceholdersAlways =
        drawsKittyPlaceholdersAlways || row.quirks.drawsKittyPlaceholdersAlways
      movesSixelWithText = movesSixelWithText || row.quirks.movesSixelWithText
    }
  }

  /// Whether a terminal with these quirks, named `names`, at kitty `version` (XTVERSION's
  /// "kitty(0.26.5)"), draws kitty's Unicode placeholders: kitty from 0.28, Ghostty always.
  func drawsKittyPlaceholders(names: [String], version: String?) -> Bool {
    if drawsKittyPlaceholdersAlways { return true }
    let numbers = version.map(TmuxState.versionNumbers) ?? []
    return names.contains { $0.lowercased().contains("kitty") } && !numbers.isEmpty
      && !numbers.lexicographicallyPrecedes([0, 28])
  }
}
