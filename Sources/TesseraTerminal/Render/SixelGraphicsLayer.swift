import TesseraUtilities

/// DEC sixel behind ``GraphicsLayer``: pixels over cells, quantized and encoded per crop by the
/// shared ``InlineImageLayer`` engine (see ``InlinePixelLayer``).
///
/// - Complexity: O(screen cells + fragments) per frame, plus the encoding of what is drawn
///   (see ``InlineImageLayer``).
final class SixelGraphicsLayer: InlinePixelLayer {
  static var graphics: GraphicsProtocol { .sixel }
  static var encoding: InlineImageLayer.Encoding { .sixel }
  /// Coarse previews (``SixelPreview``): a picture on every tile over a slow link first.
  static var sendsPreviews: Bool { true }

  var engine: InlineImageLayer
  var signatures: [Int]?
  var draws: [InlineImageLayer.Draw] = []

  init(settings: GraphicsLayerSettings) {
    engine = Self.engine(for: settings)
  }

  /// Scrolls outside tmux where the terminal moves sixel pixels with the text (a VT340,
  /// xterm, mlterm, foot; ``TerminalQuirks/movesSixelWithText``), and, when not told, assumes
  /// it does, as the VT340 defined. tmux keeps sixel pixels in place.
  func usesScrollRegions(insideTmux: Bool, movesWithText: Bool?) -> Bool {
    !insideTmux && (movesWithText ?? true)
  }
}
