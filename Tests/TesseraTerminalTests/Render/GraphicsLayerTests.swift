import TesseraUtilities
import Testing

@testable import TesseraTerminal

/// The graphics-protocol seam: ``GraphicsLayers`` maps each protocol to its layer type, and
/// each layer declares what ``TerminalRenderer`` decided by comparing the protocol before the
/// seam: whether the text differ reprints unchanged cells, when scroll regions are used,
/// whether previews are sent and images outlive the app, and what hiding the images writes.
@Suite struct GraphicsLayerTests {
  static let settings = GraphicsLayerSettings(
    cellSize: PixelSize(width: 10, height: 20), passthrough: false, kittyPlaceholders: false)

  /// Whether the factory and a renderer for `graphics` both hold a `Layer`.
  static func picks<Layer: GraphicsLayer>(_ graphics: GraphicsProtocol, _: Layer.Type) -> Bool {
    ObjectIdentifier(GraphicsLayers.type(for: graphics)) == ObjectIdentifier(Layer.self)
      && GraphicsLayers.make(graphics, settings: settings) is Layer
      && TerminalRenderer(graphics: graphics).layer is Layer
      && TerminalRenderer(graphics: graphics).graphics == graphics
  }

  @Test func everyProtocolHasTheLayerThatSpeaksIt() {
    for graphics in GraphicsProtocol.allCases {
      #expect(GraphicsLayers.type(for: graphics).graphics == graphics, "\(graphics)")
    }
  }

  @Test func kittyPlacements() {
    #expect(Self.picks(.kitty, KittyGraphicsLayer.self))
    let renderer = TerminalRenderer(graphics: .kitty)
    let layer = renderer.layer
    #expect(layer.reprintsUnchangedCells)
    #expect((layer as? KittyGraphicsLayer)?.placeholders == false)
    // Placements do not move with a scrolled region, in or out of tmux.
    #expect(!renderer.usesScrollRegions)
    #expect(
      !TerminalRenderer(graphics: .kitty, insideTmux: true, kittyPlaceholders: false)
        .usesScrollRegions)
    #expect(KittyGraphicsLayer.sendsPreviews && KittyGraphicsLayer.keepsImagesAfterExit)
    // Placements drawn past tmux are taken off when the pane is hidden.
    #expect(!renderer.hideImages().isEmpty)
    // What the probe learnt reaches the engine.
    let probed = TerminalRenderer(
      capabilities: TerminalCapabilities(graphics: .kitty, kittyLocalFiles: true))
    #expect((probed.layer as? KittyGraphicsLayer)?.engine.localFiles == true)
    #expect((renderer.layer as? KittyGraphicsLayer)?.engine.localFiles == false)
  }

  @Test func kittyPlaceholders() {
    // Inside tmux kitty defaults to placeholders: the same type, configured.
    let renderer = TerminalRenderer(graphics: .kitty, insideTmux: true)
    #expect(renderer.layer is KittyGraphicsLayer)
    #expect((renderer.layer as? KittyGraphicsLayer)?.placeholders == true)
    #expect(renderer.layer.reprintsUnchangedCells)
    // Placeholders are text: a scrolled region moves them.
    #expect(renderer.usesScrollRegions)
    #expect(TerminalRenderer(graphics: .kitty, kittyPlaceholders: true).usesScrollRegions)
    #expect(
      TerminalRenderer(
        capabilities: TerminalCapabilities(graphics: .kitty, insideTmux: true)
      ).usesScrollRegions)
    // No placement to hide.
    #expect(renderer.hideImages().isEmpty)
  }

  @Test func sixel() {
    #expect(Self.picks(.sixel, SixelGraphicsLayer.self))
    let renderer = TerminalRenderer(graphics: .sixel)
    #expect(!renderer.layer.reprintsUnchangedCells)
    #expect(SixelGraphicsLayer.encoding == .sixel)
    #expect((renderer.layer as? SixelGraphicsLayer)?.engine.encoding == .sixel)
    // Not told the terminal: scrolls outside tmux, as the VT340 moves sixel with text.
    #expect(renderer.usesScrollRegions)
    #expect(!TerminalRenderer(graphics: .sixel, insideTmux: true).usesScrollRegions)
    #expect(SixelGraphicsLayer.sendsPreviews && !SixelGraphicsLayer.keepsImagesAfterExit)
    #expect(renderer.hideImages().isEmpty)
  }

  @Test func iterm2() {
    #expect(Self.picks(.iterm2, ITerm2GraphicsLayer.self))
    let renderer = TerminalRenderer(graphics: .iterm2)
    #expect(!renderer.layer.reprintsUnchangedCells)
    #expect(ITerm2GraphicsLayer.encoding == .iterm2)
    #expect((renderer.layer as? ITerm2GraphicsLayer)?.engine.encoding == .iterm2)
    // Not told the terminal: redrawn tile by tile; told it moves pixels with text: scrolls.
    #expect(!renderer.usesScrollRegions)
    #expect(
      TerminalRenderer(
        capabilities: TerminalCapabilities(graphics: .iterm2, terminalName: "XTerm(379)")
      ).usesScrollRegions)
    #expect(
      !TerminalRenderer(
        capabilities: TerminalCapabilities(
          graphics: .iterm2, insideTmux: true, terminalName: "XTerm(379)")
      ).usesScrollRegions)
    #expect(
      !TerminalRenderer(capabilities: TerminalCapabilities(graphics: .iterm2))
        .usesScrollRegions)
    #expect(!ITerm2GraphicsLayer.sendsPreviews && !ITerm2GraphicsLayer.keepsImagesAfterExit)
    #expect(renderer.hideImages().isEmpty)
  }

  @Test func blocks() {
    #expect(Self.picks(.blocks, BlockGraphicsLayer.self))
    let renderer = TerminalRenderer(graphics: .blocks)
    #expect(renderer.layer.reprintsUnchangedCells)
    // Cells: scrolled everywhere, inside tmux and on an unknown terminal too.
    #expect(renderer.usesScrollRegions)
    #expect(TerminalRenderer(graphics: .blocks, insideTmux: true).usesScrollRegions)
    #expect(
      TerminalRenderer(
        capabilities: TerminalCapabilities(graphics: .blocks, insideTmux: true)
      ).usesScrollRegions)
    #expect(!BlockGraphicsLayer.sendsPreviews && !BlockGraphicsLayer.keepsImagesAfterExit)
    #expect(renderer.hideImages().isEmpty)
  }

  /// kitty and sixel send previews while moving over a constrained link; the others draw what
  /// is cached.
  @Test func previewsOnlyWhereTheLayerSendsThem() {
    for graphics in GraphicsProtocol.allCases {
      let policy = ImageDrawPolicy.forFrame(
        moving: true, fast: true, constrainedLink: true, graphics: graphics)
      let previews: Set<GraphicsProtocol> = [.kitty, .sixel]
      #expect(policy == (previews.contains(graphics) ? .preview : .cachedOnly), "\(graphics)")
    }
  }
}
