import Testing

@testable import TesseraTerminal

/// Over a slow link sixel tiles go in bands of a few cell rows (``TerminalRenderer/linkIsSlow``,
/// issue 34): a key's answer then waits behind one band, never a whole tile's string. The
/// picture is the same, no band is sent twice, and a frame's image bytes end within one band
/// of its budget.
@Suite struct SixelBandTests {
  static let tile = ImagePlacement(
    imageID: 3, bitmap: SixelScrollTests.bitmaps[0],
    rect: CellRect(x: 2, y: 1, width: 10, height: 9))

  @Test func bandsAreCountedFromTheImagesTopWhateverTheClip() {
    let bands = Self.tile.bands(of: 2)
    #expect(
      bands.map(\.clip)
        == [1, 3, 5, 7, 9].map { CellRect(x: 2, y: $0, width: 10, height: $0 == 9 ? 1 : 2) })
    var clipped = Self.tile
    clipped.clip = CellRect(x: 0, y: 4, width: 20, height: 4)
    // Rows 4–7 of the screen: band 3–4's lower row, band 5–6, band 7–8's upper row.
    #expect(
      clipped.bands(of: 2).map(\.clip)
        == [
          CellRect(x: 2, y: 4, width: 10, height: 1), CellRect(x: 2, y: 5, width: 10, height: 2),
          CellRect(x: 2, y: 7, width: 10, height: 1),
        ])
    #expect(Self.tile.bands(of: 9).count == 1)
    #expect(Self.tile.bands(of: 0).count == 1)
  }

  /// Through tmux's passthrough a band cannot be cut for a key (tmux forwards a sequence
  /// whole and resets after it): it goes as two halves side by side, each its own sixel,
  /// counted from the image's left whatever the clip.
  @Test func throughTmuxABandGoesInPiecesSideBySide() {
    #expect(
      Self.tile.columns(2).map(\.clip) == [
        CellRect(x: 2, y: 1, width: 5, height: 9), CellRect(x: 7, y: 1, width: 5, height: 9),
      ])
    var clipped = Self.tile
    clipped.clip = CellRect(x: 5, y: 0, width: 20, height: 20)
    #expect(
      clipped.columns(2).map(\.clip) == [
        CellRect(x: 5, y: 1, width: 2, height: 9), CellRect(x: 7, y: 1, width: 5, height: 9),
      ])
    #expect(Self.tile.columns(1).count == 1)

    let frame = FrameBuffer(width: 16, height: 12)
    func drawn(throughTmux: Bool) -> (largest: Int, all: Int) {
      let renderer = TerminalRenderer(
        graphics: .sixel, insideTmux: throughTmux, passthrough: throughTmux,
        cellPixelSize: SixelScrollTests.cell)
      renderer.linkIsSlow = true
      _ = renderer.render(frame, images: [Self.tile])
      return (renderer.largestImageDrawInLastFrame, renderer.imageBytesInLastFrame)
    }
    let straight = drawn(throughTmux: false)
    let tmux = drawn(throughTmux: true)
    #expect(
      tmux.largest * 10 < straight.largest * 7,
      "the largest draw through tmux \(tmux.largest) B, straight \(straight.largest) B")
    #expect(tmux.all > straight.all, "each half declares its own colours")

    // Locally too, each piece fits one passthrough sequence: a band of 3,000 × 40 px is two.
    let local = TerminalRenderer(
      graphics: .sixel, insideTmux: true, passthrough: true,
      cellPixelSize: PixelSize(width: 10, height: 20))
    let wide = ImagePlacement(
      imageID: 4, bitmap: SixelScrollTests.bitmaps[0],
      rect: CellRect(x: 0, y: 0, width: 300, height: 2))
    #expect(local.piecesThroughTmux(of: wide, rows: 2) == 2)
    #expect(local.piecesThroughTmux(of: Self.tile, rows: 2) == 1)
    local.linkIsSlow = true
    #expect(local.piecesThroughTmux(of: Self.tile, rows: 2) == 2)
    // Measured, the link sizes them: a band of a 380-pixel tile (~82 kB) is 0.33 s at
    // 2 Mbit/s, four pieces of a tenth of a second; at 20 Mbit/s one.
    let photoTile = ImagePlacement(
      imageID: 5, bitmap: SixelScrollTests.bitmaps[0],
      rect: CellRect(x: 0, y: 0, width: 38, height: 12))
    local.linkBytesPerSecond = 250_000
    #expect(local.piecesThroughTmux(of: photoTile, rows: 2) == 4)
    local.linkBytesPerSecond = 2_500_000
    #expect(local.piecesThroughTmux(of: photoTile, rows: 2) == 1)
    local.linkBytesPerSecond = 1_000
    #expect(local.piecesThroughTmux(of: photoTile, rows: 2) == 4, "never more than four")
    local.linkIsSlow = false
    #expect(local.piecesThroughTmux(of: photoTile, rows: 2) == 1)
  }

  @Test func aBandedTileUnderABudgetArrivesWholeBandByBand() throws {
    let cell = SixelScrollTests.cell
    var frame = FrameBuffer(width: 16, height: 12)
    frame.put("status", x: 0, y: 11)
    let whole = TerminalRenderer(graphics: .sixel, cellPixelSize: cell)
    var reference = SixelTerminal(columns: 16, rows: 12, cell: cell)
    reference.apply(whole.render(frame, images: [Self.tile]))
    let tileBytes = whole.imageBytesInLastFrame

    let banded = TerminalRenderer(graphics: .sixel, cellPixelSize: cell)
    banded.linkIsSlow = true
    var terminal = SixelTerminal(columns: 16, rows: 12, cell: cell)
    let budget = tileBytes / 8
    var frames = 0
    var largest = 0
    repeat {
      frames += 1
      try #require(frames <= 10, "the tile never arrived whole")
      let deferred = banded.statistics.imagesDeferred
      terminal.apply(banded.render(frame, images: [Self.tile], imageBudget: budget))
      largest = max(largest, banded.imageBytesInLastFrame)
      // The pacer is told of the largest string the terminal must read whole: a band.
      let draw = banded.largestImageDrawInLastFrame
      #expect((draw > 0) == (banded.imageBytesInLastFrame > 0), "frame \(frames): draw \(draw)")
      #expect(draw <= banded.imageBytesInLastFrame && draw < tileBytes / 4, "a draw of \(draw)")
      if banded.statistics.imagesDeferred == deferred { break }
    } while true
    #expect(frames >= 3, "\(frames) frames: the budget should have spread the bands")
    // At most two rows a band; with 6-pixel cells one row is whole sixel rows: 9 bands.
    #expect(terminal.images == 9, "each of the 9 bands drawn once: \(terminal.images)")
    #expect(largest < tileBytes / 2, "a frame carried \(largest) of the tile's \(tileBytes) bytes")
    for y in 1..<10 {
      for x in 2..<12 {
        #expect(
          terminal.pixels(ofCell: x, y) == reference.pixels(ofCell: x, y), "cell (\(x),\(y))")
      }
    }
    // At rest nothing more goes.
    _ = banded.render(frame, images: [Self.tile], imageBudget: budget)
    #expect(banded.imageBytesInLastFrame == 0)
    #expect(banded.largestImageDrawInLastFrame == 0)
    // Unbanded, the draw is the whole tile.
    #expect(whole.largestImageDrawInLastFrame > tileBytes * 9 / 10)
  }

  /// Cells 17 pixels tall (DejaVu Sans Mono at 14 px in xterm), not a whole number of sixel
  /// rows: each one-row band takes in the rows of the band below it to be whole sixel rows, so
  /// the tile has every pixel it has when drawn whole. Before, each band was cut to 12 of its
  /// 17 rows and every cell row of a tile showed a dark line in xterm over SSH.
  @Test func bandsOfCellsThatAreNotWholeSixelRowsLeaveNoGap() {
    let cell = PixelSize(width: 9, height: 17)
    let tile = ImagePlacement(
      imageID: 3, bitmap: SixelScrollTests.bitmaps[1],
      rect: CellRect(x: 2, y: 1, width: 10, height: 7))
    var frame = FrameBuffer(width: 16, height: 10)
    frame.put("status", x: 0, y: 9)
    let whole = TerminalRenderer(graphics: .sixel, cellPixelSize: cell)
    var reference = SixelTerminal(columns: 16, rows: 10, cell: cell)
    reference.apply(whole.render(frame, images: [tile]))
    let banded = TerminalRenderer(graphics: .sixel, cellPixelSize: cell)
    banded.linkIsSlow = true
    var terminal = SixelTerminal(columns: 16, rows: 10, cell: cell)
    terminal.apply(banded.render(frame, images: [tile]))
    #expect(terminal.images == 7, "one sixel a band: \(terminal.images)")
    var differing: [String] = []
    for y in 1..<8 {
      for x in 2..<12 where terminal.pixels(ofCell: x, y) != reference.pixels(ofCell: x, y) {
        differing.append("(\(x),\(y))")
      }
    }
    #expect(differing.isEmpty, "cells unlike the whole tile's: \(differing)")
    // Nothing below the tile: its last band ends with it.
    #expect(terminal.pixels(ofCell: 5, 8).allSatisfy { $0 == 0 })
  }

  /// Bands are the fewest cell rows (at most the limit) that draw the fewest pixels twice.
  @Test func bandRowsWasteTheLeastInWholeSixelRows() {
    #expect(TerminalRenderer.bandRows(atMost: 2, cellHeight: 20) == 2)  // 20 % against 5 %
    #expect(TerminalRenderer.bandRows(atMost: 2, cellHeight: 17) == 1)  // 1 of 18 either way
    #expect(TerminalRenderer.bandRows(atMost: 2, cellHeight: 18) == 1)
    #expect(TerminalRenderer.bandRows(atMost: 2, cellHeight: 15) == 2)  // 30 pixels, exact
    #expect(TerminalRenderer.bandRows(atMost: 1, cellHeight: 20) == 1)
    #expect(TerminalRenderer.bandRows(atMost: 0, cellHeight: 0) == 1)
  }
}
