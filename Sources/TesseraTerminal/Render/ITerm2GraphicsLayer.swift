import TesseraUtilities

/// iTerm2's inline images (OSC 1337) behind ``GraphicsLayer``: pixels over cells, each crop a
/// JPEG (a PNG where it has alpha) from the shared ``InlineImageLayer`` engine (see
/// ``InlinePixelLayer``).
///
/// - Complexity: O(screen cells + fragments) per frame, plus the encoding of what is drawn
///   (see ``InlineImageLayer``).
final class ITerm2GraphicsLayer: InlinePixelLayer {
  static var graphics: GraphicsProtocol { .iterm2 }
  static var encoding: InlineImageLayer.Encoding { .iterm2 }

  var engine: InlineImageLayer
  var signatures: [Int]?
  var draws: [InlineImageLayer.Draw] = []

  init(settings: GraphicsLayerSettings) {
    engine = Self.engine(for: settings)
  }

  /// Scrolls outside tmux only where the terminal is known to move pixel images with the text
  /// (``TerminalCapabilities/sixelMovesWithText``); when not told, it redraws tile by tile.
  func usesScrollRegions(insideTmux: Bool, movesWithText: Bool?) -> Bool {
    !insideTmux && (movesWithText ?? false)
  }
}
