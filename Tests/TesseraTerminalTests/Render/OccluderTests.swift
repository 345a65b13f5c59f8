import Testing

@testable import TesseraTerminal

/// An overlay's box (the help card) shows no image in any protocol: images are drawn around
/// it, and whole again once it is gone.
@Suite struct OccluderTests {
  static let box = CellRect(x: 4, y: 2, width: 6, height: 2)
  static let tile = ImagePlacement(
    imageID: 1, bitmap: SixelScrollTests.bitmaps[3],
    rect: CellRect(x: 2, y: 1, width: 10, height: 4))

  @Test func piecesCoverEverythingButTheBox() {
    let pieces = Self.tile.pieces(around: [Self.box])
    #expect(pieces.count == 4)
    var covered = Set<[Int]>()
    for piece in pieces {
      let clip = piece.clip ?? piece.rect
      #expect(clip.intersection(Self.box).isEmpty)
      for y in clip.y..<clip.maxY {
        for x in clip.x..<clip.maxX { covered.insert([x, y]) }
      }
    }
    // 40 cells, less the box's 12.
    #expect(covered.count == 28)
    #expect(Self.tile.pieces(around: [CellRect(x: 0, y: 0, width: 30, height: 30)]).isEmpty)
    #expect(Self.tile.pieces(around: [CellRect(x: 20, y: 0, width: 3, height: 3)]).count == 1)
  }

  /// Sixel: the box's cells keep the overlay's text, no pixels; the rest of the tile shows.
  @Test func sixelDrawsAroundTheBox() throws {
    let cell = SixelScrollTests.cell
    let renderer = TerminalRenderer(graphics: .sixel, cellPixelSize: cell)
    var frame = FrameBuffer(width: 16, height: 8)
    frame.put("help!", x: 4, y: 2)
    var terminal = SixelTerminal(columns: 16, rows: 8, cell: cell)
    terminal.apply(renderer.render(frame, images: [Self.tile], occluders: [Self.box]))
    for y in 1..<5 {
      for x in 2..<12 {
        let lit = terminal.pixels(ofCell: x, y).contains { $0 != 0 }
        #expect(lit == !Self.box.contains(x: x, y: y), "cell (\(x),\(y))")
      }
    }
    // The overlay closed: the whole tile shows again.
    var closed = FrameBuffer(width: 16, height: 8)
    closed.put(" ", x: 0, y: 0)
    terminal.apply(renderer.render(closed, images: [Self.tile]))
    for y in 1..<5 {
      for x in 2..<12 {
        #expect(terminal.pixels(ofCell: x, y).contains { $0 != 0 }, "cell (\(x),\(y)) after")
      }
    }
  }

  /// Sixel (issue 34): opening a card over a screen of tiles sends no image byte (the pieces
  /// around it are already on the screen), and closing it sends only the cells it covered —
  /// at most the bytes of the tiles under it, not the screen's. Before, both re-sent every
  /// tile the card touched, whole.
  @Test func sixelOverlayOpenAndCloseCostOnlyTheCoveredCells() throws {
    let cell = SixelScrollTests.cell
    let renderer = TerminalRenderer(graphics: .sixel, cellPixelSize: cell)
    // A 3×2 grid of 10×4 tiles on a 32×12 screen, the card over the middle of it.
    let tiles = (0..<6).map { index in
      ImagePlacement(
        imageID: UInt64(index + 1), bitmap: SixelScrollTests.bitmaps[index],
        rect: CellRect(x: 1 + (index % 3) * 10, y: 1 + (index / 3) * 5, width: 10, height: 4))
    }
    var grid = FrameBuffer(width: 32, height: 12)
    grid.put("grid", x: 0, y: 0)
    let first = renderer.render(grid, images: tiles)
    let card = CellRect(x: 8, y: 3, width: 12, height: 5)
    var withCard = grid
    withCard.fill(card, with: Cell("#"))
    let open = renderer.render(withCard, images: tiles, occluders: [card])
    #expect(
      TerminalRendererTests.count("\u{1B}P", in: open) == 0,
      "opening the card sent \(open.count) bytes with sixel data")
    let close = renderer.render(grid, images: tiles)
    let covered = tiles.filter { !$0.rect.intersection(card).isEmpty }
    // Each tile drawn whole costs about a sixth of the first frame; the card touched four.
    #expect(covered.count == 4)
    #expect(
      close.count * tiles.count <= first.count * covered.count,
      "closing sent \(close.count) bytes; the first frame of \(tiles.count) tiles was \(first.count)"
    )
    // And what shows is whole again.
    var terminal = SixelTerminal(columns: 32, rows: 12, cell: cell)
    terminal.apply(first)
    terminal.apply(open)
    terminal.apply(close)
    for tile in tiles {
      for y in tile.rect.y..<tile.rect.maxY {
        for x in tile.rect.x..<tile.rect.maxX {
          #expect(terminal.pixels(ofCell: x, y).contains { $0 != 0 }, "cell (\(x),\(y))")
        }
      }
    }
  }

  /// Half blocks: the box's cells are the frame's own (the overlay's text).
  @Test func blocksLeaveTheBoxsCells() {
    let renderer = TerminalRenderer(graphics: .blocks)
    var frame = FrameBuffer(width: 16, height: 8)
    frame.put("help!", x: 4, y: 2)
    var terminal = VirtualTerminal(width: 16, height: 8)
    terminal.apply(renderer.render(frame, images: [Self.tile], occluders: [Self.box]))
    #expect(terminal.screen.text(ofRow: 2).contains("help!"))
    #expect(terminal.screen[2, 2].text == "▀")
    #expect(terminal.screen[11, 4].text == "▀")
  }

  /// kitty: the placements' cells never reach into the box.
  @Test func kittyPlacesTheTileAroundTheBox() throws {
    let renderer = TerminalRenderer(graphics: .kitty)
    let bytes = renderer.render(
      FrameBuffer(width: 16, height: 8), images: [Self.tile], occluders: [Self.box])
    var kitty = KittyWire()
    try kitty.apply(bytes)
    #expect(kitty.uploads == 1)
    let cells = kitty.placements.map { $0.columns * $0.rows }.reduce(0, +)
    #expect(cells == 28)
    #expect(kitty.placements.count == 4)
  }
}
