import Testing

@testable import TesseraTerminal

@Suite struct TerminalRendererTests {
  static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

  static func count(_ needle: String, in bytes: [UInt8]) -> Int {
    text(bytes).split(separator: needle, omittingEmptySubsequences: false).count - 1
  }

  static func placeholderFrame() -> FrameBuffer {
    var frame = FrameBuffer(width: 12, height: 8)
    frame.put("status", x: 0, y: 7)
    return frame
  }

  static func image(_ id: UInt64, at rect: CellRect) throws -> ImagePlacement {
    ImagePlacement(imageID: id, bitmap: try HalfBlockImageTests.stripes(), rect: rect)
  }

  @Test func blocksComposeIntoTheFrameAndAStillFrameCostsNothing() throws {
    let renderer = TerminalRenderer(graphics: .blocks)
    var terminal = VirtualTerminal(width: 12, height: 8)
    // 2×2 cells are 2×4 half-block pixels: a bitmap of that shape shows every stripe.
    let tile = ImagePlacement(
      imageID: 1, bitmap: try HalfBlockImageTests.stripes(height: 8),
      rect: CellRect(x: 1, y: 1, width: 2, height: 2))
    terminal.apply(renderer.render(Self.placeholderFrame(), images: [tile]))
    #expect(terminal.screen[1, 1].style.foreground == .rgb(255, 0, 0))
    #expect(terminal.screen[2, 2].style.background == .rgb(255, 255, 255))
    #expect(terminal.screen.text(ofRow: 7).hasPrefix("status"))
    #expect(renderer.render(Self.placeholderFrame(), images: [tile]).isEmpty)
    #expect(renderer.statistics.imageConversions == 1)
    #expect(renderer.statistics.imageCacheHits == 1)
  }

  /// A tile's transparent pixels take the colour of the cells under the tile; the same image
  /// on another background (a selection) is converted for it, not served from the cache with
  /// the old colour.
  @Test func transparentPixelsShowTheBackgroundUnderTheirTileEachTime() throws {
    let renderer = TerminalRenderer(graphics: .blocks)
    let clear = try Bitmap.generated(width: 4, height: 4) { _, _ in (255, 255, 255, 0) }
    let tile = ImagePlacement(
      imageID: 1, bitmap: clear, rect: CellRect(x: 1, y: 1, width: 4, height: 2))
    for colour in [CellColor.rgb(0, 0, 200), .rgb(0, 200, 0)] {
      var frame = Self.placeholderFrame()
      frame.fill(
        CellRect(x: 1, y: 1, width: 4, height: 2),
        with: Cell(" ", style: CellStyle(background: colour)))
      var terminal = VirtualTerminal(width: 12, height: 8)
      terminal.apply(renderer.render(frame, images: [tile]))
      #expect(terminal.screen[1, 1].style.background == colour)
      #expect(terminal.screen[1, 1].style.foreground == colour)
    }
    #expect(renderer.statistics.imageConversions == 2)
  }

  @Test func deferredImagesLeaveThePlaceholderInPlace() throws {
    let renderer = TerminalRenderer(graphics: .blocks)
    var terminal = VirtualTerminal(width: 12, height: 8)
    var frame = Self.placeholderFrame()
    frame.put("..", x: 1, y: 1)
    let tile = try Self.image(1, at: CellRect(x: 1, y: 1, width: 2, height: 2))
    terminal.apply(renderer.render(frame, images: [tile], policy: .cachedOnly))
    #expect(terminal.screen.text(ofRow: 1).hasPrefix(" .."))
    terminal.apply(renderer.render(frame, images: [tile], policy: .all))
    #expect(terminal.screen[1, 1].text == "▀")
    terminal.apply(renderer.render(frame, images: [tile], policy: .none))
    #expect(terminal.screen.text(ofRow: 1).hasPrefix(" .."))
    terminal.apply(renderer.render(frame, images: [tile], policy: .cachedOnly))
    #expect(terminal.screen[1, 1].text == "▀")
    #expect(renderer.statistics.imageConversions == 1)
  }

  /// Tiles that leave together are hidden in id order: the same frames write the same bytes
  /// on every run (a dictionary's order would not).
  @Test func kittyHidesWhatLeftInIDOrder() throws {
    let frame = Self.placeholderFrame()
    var outputs: Set<String> = []
    for _ in 0..<8 {
      let renderer = TerminalRenderer(graphics: .kitty)
      let tiles = try (1...6).map { id in
        try Self.image(UInt64(id), at: CellRect(x: id, y: 1, width: 1, height: 1))
      }
      _ = renderer.render(frame, images: tiles)
      let gone = Self.text(renderer.render(frame, images: []))
      outputs.insert(gone)
      let ids = gone.split(separator: "\u{1B}_G").compactMap { command in
        command.split(separator: ",").first { $0.hasPrefix("i=") }.flatMap { Int($0.dropFirst(2)) }
      }
      #expect(ids == ids.sorted() && ids.count == 6, "\(gone)")
    }
    #expect(outputs.count == 1)
  }

  @Test func kittyUploadsOnceThenMovesHidesAndShowsAgainWithoutUploading() throws {
    let renderer = TerminalRenderer(graphics: .kitty)
    let frame = Self.placeholderFrame()
    let first = renderer.render(
      frame, images: [try Self.image(1, at: CellRect(x: 2, y: 2, width: 4, height: 2))])
    #expect(Self.count("a=t,", in: first) == 1)
    #expect(Self.text(first).hasSuffix("\u{1B}[3;3H\u{1B}_Ga=p,i=1,p=1,c=4,r=2,C=1,q=2\u{1B}\\"))
    // Scrolled up by one row: a placement moves, no upload.
    let moved = renderer.render(
      frame, images: [try Self.image(1, at: CellRect(x: 2, y: 1, width: 4, height: 2))])
    #expect(Self.text(moved) == "\u{1B}[2;3H\u{1B}_Ga=p,i=1,p=1,c=4,r=2,C=1,q=2\u{1B}\\")
    // Half off the top: the lower half of the upload, the 4×32 bitmap's centre cropped to
    // the tile's square 40×40 pixels (4×4).
    let cropped = renderer.render(
      frame, images: [try Self.image(1, at: CellRect(x: 2, y: -1, width: 4, height: 2))])
    #expect(Self.text(cropped).contains("a=p,i=1,p=1,x=0,y=2,w=4,h=2,c=4,r=1,"))
    let gone = renderer.render(frame, images: [])
    #expect(Self.text(gone) == "\u{1B}_Ga=d,d=i,i=1,p=1,q=2\u{1B}\\")
    let back = renderer.render(
      frame, images: [try Self.image(1, at: CellRect(x: 2, y: 2, width: 4, height: 2))])
    #expect(Self.count("a=t,", in: back) == 0)
    #expect(Self.count("a=p,", in: back) == 1)
    #expect(renderer.statistics.imageConversions == 1)
  }

  /// kitty frees, on a clear (`ED 2`), every image left without a placement: an upload
  /// written before the clear of a full redraw (a resize) would be lost, and so is every
  /// earlier upload. Each full redraw uploads what it shows again, after the clear, even an
  /// image whose tile kept its shape (the window grew: kitty 0.26 showed those tiles blank).
  @Test func kittyUploadsAfterTheClearOfAFullRedraw() throws {
    let renderer = TerminalRenderer(graphics: .kitty)
    let frames = [
      (Self.placeholderFrame(), CellRect(x: 2, y: 2, width: 4, height: 2)),
      (FrameBuffer(width: 10, height: 8), CellRect(x: 2, y: 2, width: 3, height: 2)),
      // The same tile shape in a larger window.
      (FrameBuffer(width: 14, height: 9), CellRect(x: 2, y: 2, width: 3, height: 2)),
    ]
    let photo = try Bitmap.generated(width: 400, height: 300) { _, _ in (9, 9, 9, 255) }
    for (frame, rect) in frames {
      let placement = ImagePlacement(imageID: 1, bitmap: photo, rect: rect)
      let text = Self.text(renderer.render(frame, images: [placement]))
      let clear = try #require(text.range(of: "\u{1B}[2J"))
      let upload = try #require(text.range(of: "a=t,"))
      #expect(clear.upperBound <= upload.lowerBound, "the upload follows the clear")
    }
    // An ordinary frame (no clear) still uploads before synchronized output.
    let moved = Self.text(
      renderer.render(
        FrameBuffer(width: 14, height: 9),
        images: [try Self.image(2, at: CellRect(x: 0, y: 0, width: 4, height: 2))]))
    #expect(!moved.contains("\u{1B}[2J"))
    #expect(moved.contains("a=t,"))
  }

  @Test func kittyUploadsLargeBitmapsAtTheTilesPixelSizeAndShape() throws {
    let renderer = TerminalRenderer(
      graphics: .kitty, cellPixelSize: PixelSize(width: 10, height: 20))
    let large = try Bitmap.generated(width: 400, height: 300) { _, _ in (9, 9, 9, 255) }
    let bytes = renderer.render(
      Self.placeholderFrame(),
      images: [
        ImagePlacement(imageID: 4, bitmap: large, rect: CellRect(x: 0, y: 0, width: 3, height: 2))
      ])
    // 400×300 cropped to the tile's 3:4 (225×300), then scaled to its 30×40 pixels.
    #expect(Self.text(bytes).contains("a=t,t=d,f=100,s=30,v=40,i=1,"))
  }

  @Test func kittyDeferralSkipsUploadsButPlacesUploadedImages() throws {
    let renderer = TerminalRenderer(graphics: .kitty)
    let frame = Self.placeholderFrame()
    let old = try Self.image(1, at: CellRect(x: 0, y: 0, width: 2, height: 2))
    _ = renderer.render(frame, images: [old])
    let fresh = try Self.image(2, at: CellRect(x: 4, y: 0, width: 2, height: 2))
    let moved = try Self.image(1, at: CellRect(x: 0, y: 2, width: 2, height: 2))
    let fling = renderer.render(frame, images: [moved, fresh], policy: .cachedOnly)
    #expect(Self.count("a=t,", in: fling) == 0)
    #expect(Self.count("a=p,i=1,", in: fling) == 1)
    let none = renderer.render(frame, images: [moved, fresh], policy: .none)
    #expect(Self.text(none) == "\u{1B}_Ga=d,d=i,i=1,p=1,q=2\u{1B}\\")
    #expect(renderer.statistics.imagesDeferred == 3)
  }

  @Test func kittyInsideTmuxComposesPlaceholderCells() throws {
    let renderer = TerminalRenderer(graphics: .kitty, insideTmux: true)
    var terminal = VirtualTerminal(width: 12, height: 8)
    let tile = try Self.image(1, at: CellRect(x: 3, y: -1, width: 2, height: 3))
    let bytes = renderer.render(Self.placeholderFrame(), images: [tile])
    #expect(Self.count("\u{1B}Ptmux;\u{1B}\u{1B}_Ga=t,", in: bytes) == 1)
    #expect(Self.count("a=p,U=1,i=1,c=2,r=3,", in: bytes) == 1)
    terminal.apply(bytes)
    #expect(terminal.screen[3, 0].text == KittyPlaceholder.grapheme(row: 1, column: 0))
    #expect(terminal.screen[4, 1].text == KittyPlaceholder.grapheme(row: 2, column: 1))
    #expect(terminal.screen[4, 1].style.foreground == .rgb(0, 0, 1))
    #expect(terminal.screen[5, 0] == .blank)
  }

  @Test func sixelDrawsOnceRepaintsWhatItLeavesAndRedrawsWhenMoved() throws {
    // Without scroll regions (a terminal not known to move sixel pixels with the text).
    let renderer = TerminalRenderer(
      graphics: .sixel, cellPixelSize: PixelSize(width: 2, height: 3))
    renderer.usesScrollRegions = false
    var frame = Self.placeholderFrame()
    frame.fill(CellRect(x: 0, y: 0, width: 12, height: 7), with: Cell("."))
    let first = renderer.render(
      frame, images: [try Self.image(1, at: CellRect(x: 1, y: 1, width: 2, height: 2))])
    #expect(Self.count("\u{1B}P0;1;0q\"1;1;4;6", in: first) == 1)
    #expect(
      renderer.render(
        frame, images: [try Self.image(1, at: CellRect(x: 1, y: 1, width: 2, height: 2))]
      ).isEmpty)
    let moved = renderer.render(
      frame, images: [try Self.image(1, at: CellRect(x: 1, y: 2, width: 2, height: 2))])
    #expect(Self.count("\u{1B}P", in: moved) == 1)
    #expect(Self.text(moved).contains("\u{1B}[2;2H.."))  // The row it left, repainted.
    #expect(Self.text(moved).hasSuffix("\u{1B}\\"))
    let gone = renderer.render(frame, images: [])
    #expect(Self.count("\u{1B}P", in: gone) == 0)
    #expect(Self.count("..", in: gone) == 2)
    // The last row is never covered: a sixel there can scroll the terminal.
    let bottom = renderer.render(
      frame, images: [try Self.image(2, at: CellRect(x: 5, y: 6, width: 2, height: 2))])
    #expect(Self.count("\"1;1;4;3", in: bottom) == 1)
  }

  @Test func sixelMovedWithItsRowsIsScrolledNotRedrawn() throws {
    let renderer = TerminalRenderer(
      graphics: .sixel, cellPixelSize: PixelSize(width: 2, height: 3))
    var frame = Self.placeholderFrame()
    frame.fill(CellRect(x: 0, y: 0, width: 12, height: 7), with: Cell("."))
    _ = renderer.render(
      frame, images: [try Self.image(1, at: CellRect(x: 1, y: 1, width: 2, height: 2))])
    // Text and image one row down: the terminal moves both; the row that came in is text.
    let moved = renderer.render(
      frame, images: [try Self.image(1, at: CellRect(x: 1, y: 2, width: 2, height: 2))])
    #expect(Self.text(moved).hasPrefix("\u{1B}[1;7r\u{1B}[1T\u{1B}[r"))
    #expect(Self.count("\u{1B}P", in: moved) == 0)
  }

  @Test func blockTilesScrollingRowByRowStayExactOnTheTerminal() throws {
    let renderer = TerminalRenderer(graphics: .blocks)
    var terminal = VirtualTerminal(width: 12, height: 8)
    for offset in [0, 1, 2, 3, 5, 4, 4, 0] {
      let tiles = try (0..<4).map { index in
        try Self.image(
          UInt64(index),
          at: CellRect(x: (index % 2) * 6, y: (index / 2) * 4 - offset, width: 5, height: 3))
      }
      var frame = Self.placeholderFrame()
      frame.put("row \(offset)", x: 6, y: 7)
      let bytes = renderer.render(frame, images: tiles)
      terminal.apply(bytes)
      var expected = frame
      for tile in tiles {
        HalfBlockImage(tile.bitmap, columns: 5, rows: 3).draw(
          into: &expected, at: (tile.rect.x, tile.rect.y))
      }
      #expect(terminal.screen == expected, "offset \(offset)")
    }
    #expect(terminal.scrolls >= 3)
  }

  @Test func synchronizedOutputWrapsTheFrame() {
    let renderer = TerminalRenderer(graphics: .blocks, synchronizedOutput: true)
    let bytes = Self.text(renderer.render(Self.placeholderFrame()))
    #expect(bytes.hasPrefix("\u{1B}[?2026h"))
    #expect(bytes.hasSuffix("\u{1B}[?2026l"))
  }

  @Test func aResizedFrameRedrawsEverything() {
    let renderer = TerminalRenderer(graphics: .blocks)
    _ = renderer.render(Self.placeholderFrame())
    var bigger = FrameBuffer(width: 14, height: 9)
    bigger.put("x", x: 0, y: 0)
    var terminal = VirtualTerminal(width: 14, height: 9)
    terminal.apply(renderer.render(bigger))
    #expect(terminal.screen == bigger)
  }
}
