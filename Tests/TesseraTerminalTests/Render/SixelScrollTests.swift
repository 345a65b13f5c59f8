import TesseraUtilities
import Testing

@testable import TesseraTerminal

/// Sixel frames checked pixel by pixel on a terminal model that moves pixels with scrolled
/// text (``SixelTerminal``): a scroll moves what is on the screen and draws only the rows
/// that enter; without scroll regions, tiles that moved are redrawn, never the whole screen.
@Suite struct SixelScrollTests {
  static let cell = PixelSize(width: 4, height: 6)
  static let columns = 30
  /// A screen as tall as a real one in tile rows (8 of them), so a one-row scroll is the
  /// small share of a frame it is on a real screen.
  static let rows = 41
  /// Tiles 10 columns wide: 4 image rows and a caption row.
  static let tileWidth = 10
  static let tileHeight = 5
  static let viewport = CellRect(x: 0, y: 0, width: 30, height: 40)

  /// In the tiles' own shape (40×24 pixels), as the pipeline decodes a grid tile: no margin.
  static let bitmaps: [Bitmap] = (0..<40).map { id in
    // swift-format-ignore: NeverUseForceTry
    try! Bitmap.generated(width: 40, height: 24) { x, y in
      let disc = (x - 20) * (x - 20) + (y - 12) * (y - 12) < 60 + id * 4
      if disc { return (UInt8(255 - id * 5), UInt8(x * 5), 40, 255) }
      return (UInt8(x * 6), UInt8(y * 6), UInt8(id * 6), 255)
    }
  }

  /// The list scrolled down by `offset` rows: 3 tiles across, captions under them, a status
  /// line at the bottom.
  static func scene(offset: Int, dot: String = "·") -> (FrameBuffer, [ImagePlacement]) {
    var frame = FrameBuffer(width: columns, height: rows)
    var images: [ImagePlacement] = []
    for tileRow in (offset / tileHeight)...((offset + viewport.height) / tileHeight) {
      for column in 0..<3 {
        let item = tileRow * 3 + column
        let x = column * tileWidth
        let y = tileRow * tileHeight - offset
        frame.put(" item \(item)", x: x, y: y + tileHeight - 1, clip: viewport)
        frame.put(dot, x: x + 5, y: y + 1, clip: viewport)
        let rect = CellRect(x: x, y: y, width: tileWidth, height: tileHeight - 1)
        guard !rect.intersection(viewport).isEmpty else { continue }
        images.append(
          ImagePlacement(
            imageID: UInt64(item), bitmap: bitmaps[item % bitmaps.count], rect: rect,
            clip: viewport))
      }
    }
    frame.put("status \(offset)", x: 0, y: rows - 1)
    return (frame, images)
  }

  /// What a whole tile looks like once painted: the decoded sixel of the tile's pixels.
  static func tilePixels(_ placement: ImagePlacement) throws -> SixelDecoder.Image {
    let width = placement.rect.width * cell.width
    let height = placement.rect.height * cell.height
    let pixels = AreaResampler.resample(placement.bitmap, width: width, height: height)
    return try #require(
      SixelDecoder.decode(SixelEncoder.encode(pixels, width: width, height: height)).first)
  }

  /// Every visible cell of every tile shows that tile's pixels; every other cell none.
  static func expectScreen(
    _ terminal: SixelTerminal, shows images: [ImagePlacement], _ label: String
  ) throws {
    var expected = [[UInt8]?](repeating: nil, count: columns * rows)
    for placement in images {
      let tile = try tilePixels(placement)
      guard let visible = placement.visible(in: viewport) else { continue }
      for row in visible.y..<visible.maxY {
        for column in visible.x..<visible.maxX {
          var cellPixels: [UInt8] = []
          let left = (column - placement.rect.x) * cell.width
          let top = (row - placement.rect.y) * cell.height
          for y in top..<(top + cell.height) {
            let start = (y * tile.width + left) * 4
            cellPixels.append(contentsOf: tile.pixels[start..<(start + cell.width * 4)])
          }
          expected[row * columns + column] = cellPixels
        }
      }
    }
    var wrong: [String] = []
    for row in 0..<rows {
      for column in 0..<columns {
        let shown = terminal.pixels(ofCell: column, row)
        let wanted = expected[row * columns + column] ?? [UInt8](repeating: 0, count: shown.count)
        if shown != wanted { wrong.append("(\(column),\(row))") }
      }
    }
    #expect(wrong.isEmpty, "\(label): wrong cells \(wrong.prefix(12))")
  }

  static func count(_ needle: String, in bytes: [UInt8]) -> Int {
    String(decoding: bytes, as: UTF8.self).split(
      separator: needle, omittingEmptySubsequences: false
    )
    .count - 1
  }

  @Test func aOneRowScrollMovesThePixelsAndDrawsOnlyTheEnteringRow() throws {
    let renderer = TerminalRenderer(graphics: .sixel, cellPixelSize: Self.cell)
    #expect(renderer.usesScrollRegions)
    var terminal = SixelTerminal(columns: Self.columns, rows: Self.rows, cell: Self.cell)
    let (first, firstImages) = Self.scene(offset: 0)
    let full = renderer.render(first, images: firstImages)
    terminal.apply(full)
    try Self.expectScreen(terminal, shows: firstImages, "first frame")
    let (next, nextImages) = Self.scene(offset: 1)
    let scroll = renderer.render(next, images: nextImages)
    terminal.apply(scroll)
    try Self.expectScreen(terminal, shows: nextImages, "scrolled by one row")
    #expect(Self.count("\u{1B}[1;40r\u{1B}[1S", in: scroll) == 1)
    // Three tiles enter by one row each: three sixels of one cell row (6 px).
    #expect(Self.count("\u{1B}P", in: scroll) == 3)
    #expect(Self.count("\"1;1;40;6#", in: scroll) == 3)
    #expect(scroll.count * 10 < full.count, "\(scroll.count) of \(full.count) bytes")
    #expect(terminal.unknown.isEmpty)
  }

  @Test func scrollingBothWaysByManyRowsKeepsEveryPixelRight() throws {
    let renderer = TerminalRenderer(graphics: .sixel, cellPixelSize: Self.cell)
    var terminal = SixelTerminal(columns: Self.columns, rows: Self.rows, cell: Self.cell)
    var sizes: [Int] = []
    for offset in [0, 1, 2, 3, 5, 4, 4, 9, 7, 12, 11, 2, 0] {
      let (frame, images) = Self.scene(offset: offset)
      let bytes = renderer.render(frame, images: images)
      terminal.apply(bytes)
      sizes.append(bytes.count)
      try Self.expectScreen(terminal, shows: images, "offset \(offset)")
    }
    #expect(terminal.scrolls >= 8)
    #expect(sizes[6] < 40, "a still frame costs almost nothing: \(sizes[6]) bytes")
    #expect(terminal.unknown.isEmpty)
  }

  @Test func withoutScrollRegionsMovedTilesAreRedrawnButNotTheScreen() throws {
    let renderer = TerminalRenderer(graphics: .sixel, cellPixelSize: Self.cell)
    renderer.usesScrollRegions = false
    var terminal = SixelTerminal(columns: Self.columns, rows: Self.rows, cell: Self.cell)
    for offset in [0, 1, 3, 2] {
      let (frame, images) = Self.scene(offset: offset)
      let bytes = renderer.render(frame, images: images)
      terminal.apply(bytes)
      try Self.expectScreen(terminal, shows: images, "offset \(offset)")
      if offset > 0 {
        #expect(Self.count("r\u{1B}[", in: bytes) == 0)
        #expect(Self.count("\u{1B}[2J", in: bytes) == 0)
        #expect(Self.count("\u{1B}P", in: bytes) == images.count)
      }
    }
    #expect(terminal.scrolls == 0)
  }

  @Test func textChangedInsideATileRedrawsOnlyThatCell() throws {
    let renderer = TerminalRenderer(graphics: .sixel, cellPixelSize: Self.cell)
    var terminal = SixelTerminal(columns: Self.columns, rows: Self.rows, cell: Self.cell)
    let (frame, images) = Self.scene(offset: 0)
    terminal.apply(renderer.render(frame, images: images))
    let (changed, _) = Self.scene(offset: 0, dot: "+")
    let bytes = renderer.render(changed, images: images)
    terminal.apply(bytes)
    try Self.expectScreen(terminal, shows: images, "dots changed")
    // One cell per tile on screen: 4×6-pixel sixels.
    #expect(Self.count("\"1;1;4;6#", in: bytes) == images.count)
    #expect(Self.count("\u{1B}P", in: bytes) == images.count)
  }

  @Test func aTileDrawnAgainUnderAnOverlappingOneKeepsTheUpperOneOnTop() throws {
    let renderer = TerminalRenderer(graphics: .sixel, cellPixelSize: Self.cell)
    var terminal = SixelTerminal(columns: Self.columns, rows: Self.rows, cell: Self.cell)
    let images = [
      ImagePlacement(
        imageID: 1, bitmap: Self.bitmaps[1], rect: CellRect(x: 0, y: 0, width: 10, height: 4)),
      ImagePlacement(
        imageID: 2, bitmap: Self.bitmaps[2], rect: CellRect(x: 5, y: 2, width: 10, height: 4)),
    ]
    var frame = FrameBuffer(width: Self.columns, height: Self.rows)
    terminal.apply(renderer.render(frame, images: images))
    try Self.expectScreen(terminal, shows: images, "first")
    // Text under the lower tile at two corners: its redraw spans part of the upper tile.
    frame.put("x", x: 1, y: 1)
    frame.put("x", x: 7, y: 3)
    let bytes = renderer.render(frame, images: images)
    terminal.apply(bytes)
    try Self.expectScreen(terminal, shows: images, "text under the lower tile")
    #expect(Self.count("\u{1B}P", in: bytes) == 2)
  }

  @Test func deferredFramesShowPlaceholdersOrKeepWhatIsAlreadyThere() throws {
    let renderer = TerminalRenderer(graphics: .sixel, cellPixelSize: Self.cell)
    var terminal = SixelTerminal(columns: Self.columns, rows: Self.rows, cell: Self.cell)
    let (frame, images) = Self.scene(offset: 0)
    terminal.apply(renderer.render(frame, images: images))
    // Scrolled while only cached crops may be drawn: the moved pixels stay, the entering
    // row (never encoded) shows its text.
    let (next, nextImages) = Self.scene(offset: 1)
    let cached = renderer.render(next, images: nextImages, policy: .cachedOnly)
    terminal.apply(cached)
    #expect(Self.count("\u{1B}P", in: cached) == 0)
    let kept = nextImages.filter { $0.rect.maxY <= Self.viewport.maxY - 1 }
    try Self.expectScreen(terminal, shows: kept, "cached only")
    // No images at all: every tile's cells are repainted as text.
    let none = renderer.render(next, images: nextImages, policy: .none)
    terminal.apply(none)
    #expect(Self.count("\u{1B}P", in: none) == 0)
    try Self.expectScreen(terminal, shows: [], "none")
    // Everything again.
    terminal.apply(renderer.render(next, images: nextImages))
    try Self.expectScreen(terminal, shows: nextImages, "all")
  }

  @Test func onlyTerminalsKnownToMoveSixelsWithTextScrollThem() {
    for (name, moves) in [
      ("XTerm(379)", true), ("foot(1.16.2)", true), ("mlterm", true),
      ("WezTerm 20240203", false), (nil, false),
    ] as [(String?, Bool)] {
      let capabilities = TerminalCapabilities(graphics: .sixel, terminalName: name)
      #expect(capabilities.sixelMovesWithText == moves, "\(name ?? "no name")")
    }
    let known = TerminalRenderer(
      capabilities: TerminalCapabilities(graphics: .sixel, terminalName: "XTerm(379)"))
    #expect(known.usesScrollRegions)
    let unknown = TerminalRenderer(capabilities: TerminalCapabilities(graphics: .sixel))
    #expect(!unknown.usesScrollRegions)
    let tmux = TerminalRenderer(
      capabilities: TerminalCapabilities(
        graphics: .sixel, insideTmux: true, terminalName: "XTerm(379)"))
    #expect(!tmux.usesScrollRegions)
  }
}
