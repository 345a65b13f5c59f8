import Testing

@testable import TesseraTerminal

/// A frame's image budget (``LinkPacer``): image data past it waits for a later frame, text
/// never waits, one image may end past the budget so any budget above zero moves on, and what
/// waited is drawn whole once the budget allows.
@Suite struct ImageBudgetTests {
  typealias Render = TerminalRendererTests

  static func tiles() throws -> [ImagePlacement] {
    try (0..<4).map {
      try Render.image(UInt64($0 + 1), at: CellRect(x: $0 * 3, y: 0, width: 2, height: 2))
    }
  }

  @Test(arguments: [GraphicsProtocol.kitty, .sixel, .iterm2])
  func imagesPastTheBudgetWaitAndTextGoesOn(graphics: GraphicsProtocol) throws {
    let unlimited = TerminalRenderer(graphics: graphics)
    _ = unlimited.render(Render.placeholderFrame(), images: try Self.tiles())
    let all = unlimited.imageBytesInLastFrame
    #expect(unlimited.statistics.imagesDeferred == 0)

    let paced = TerminalRenderer(graphics: graphics)
    var frame = Render.placeholderFrame()
    // Nothing may go: the text does, no image byte.
    let first = paced.render(frame, images: try Self.tiles(), imageBudget: 0)
    #expect(Render.text(first).contains("status"))
    #expect(paced.imageBytesInLastFrame == 0, "\(graphics): image bytes under a zero budget")
    #expect(paced.statistics.imagesDeferred == 4)
    // One byte: one image goes (it ends past the budget), the others wait.
    frame.put("moved!", x: 0, y: 6)
    _ = paced.render(frame, images: try Self.tiles(), imageBudget: 1)
    let one = paced.imageBytesInLastFrame
    #expect(one > 0 && one < all, "\(graphics): \(one) of \(all) bytes for one image")
    #expect(paced.statistics.imagesDeferred == 4 + 3)
    // Unlimited again: the three that waited are drawn.
    _ = paced.render(frame, images: try Self.tiles())
    #expect(paced.statistics.imagesDeferred == 7)
    #expect(
      paced.statistics.imageBytes >= all - 3 * 16,
      "\(graphics): \(paced.statistics.imageBytes) bytes in all, unpaced \(all)")
  }
}
