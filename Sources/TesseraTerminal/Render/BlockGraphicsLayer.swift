import TesseraUtilities

/// Half-block text art behind ``GraphicsLayer``: images become cells of the frame
/// (``BlockLayer``, cached), so the text diff draws them, a scrolled region moves them, and
/// there is nothing to place, free or hide. Works in every terminal, tmux and CI included.
///
/// - Complexity: per frame, the cells of the visible images (see ``BlockLayer``).
final class BlockGraphicsLayer: GraphicsLayer {
  static var graphics: GraphicsProtocol { .blocks }
  static var sendsPreviews: Bool { false }
  static var keepsImagesAfterExit: Bool { false }
  static var playsAnimations: Bool { false }

  private(set) var engine = BlockLayer()

  init(settings: GraphicsLayerSettings) {
    engine.cellSize = settings.cellSize
  }

  var reprintsUnchangedCells: Bool { true }

  /// Cells: a scrolled region moves them in every terminal, inside tmux too.
  func usesScrollRegions(insideTmux: Bool, movesWithText: Bool?) -> Bool { true }

  func configure(for capabilities: TerminalCapabilities) {}

  var cellSize: PixelSize {
    get { engine.cellSize }
    set { engine.cellSize = newValue }
  }

  /// Unused: cells are positioned with the text, by tmux too.
  var origin = CellPoint(x: 0, y: 0)

  func screenCleared() {}

  func reset() {}

  func hideAll(into out: inout ByteWriter) {}

  func forget(imageID: UInt64, into out: inout ByteWriter) {}

  func prepare(
    _ images: [ImagePlacement], frame: inout FrameBuffer, previous: FrameBuffer?,
    usesScrollRegions: Bool, policy: ImageDrawPolicy, imageBudget: Int, damage: inout [Bool],
    before: inout ByteWriter, statistics: inout RenderStatistics
  ) -> ScrollDetector.Scroll? {
    engine.compose(images, into: &frame, policy: policy, statistics: &statistics)
    return Self.rowsMoved(from: previous, to: frame, usesScrollRegions: usesScrollRegions)
  }

  func finish(into out: inout ByteWriter) -> Bool { false }
}
