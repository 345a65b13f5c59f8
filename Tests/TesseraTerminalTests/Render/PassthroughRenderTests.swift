import TesseraUtilities
import Testing

@testable import TesseraTerminal

/// Images drawn past tmux (passthrough) as tmux would hand them on: the outer terminal gets
/// every image command, placed at the pane's cell in its own coordinates; tmux itself reads
/// none of them (a kitty command it read would become the window title).
@Suite struct PassthroughRenderTests {
  static let origin = CellPoint(x: 10, y: 2)

  static func tile(at rect: CellRect, id: UInt64 = 1) -> ImagePlacement {
    ImagePlacement(imageID: id, bitmap: SixelScrollTests.bitmaps[Int(id) % 40], rect: rect)
  }

  @Test func kittyPlacementsGoThroughAtThePanesCellOnTheOuterScreen() throws {
    let renderer = TerminalRenderer(
      graphics: .kitty, insideTmux: true, passthrough: true, kittyPlaceholders: false)
    renderer.passthroughOrigin = Self.origin
    var frame = FrameBuffer(width: 40, height: 12)
    frame.put("status", x: 0, y: 11)
    let first = renderer.render(
      frame, images: [Self.tile(at: CellRect(x: 3, y: 1, width: 8, height: 4))])
    // The second frame, the same: uploads went with the first.
    let wire = try TmuxWire(
      first
        + renderer.render(frame, images: [Self.tile(at: CellRect(x: 3, y: 1, width: 8, height: 4))])
    )
    #expect(!TmuxWire.contains(wire.pane, Array("\u{1B}_G".utf8)), "tmux would read a command")
    #expect(!String(decoding: wire.pane, as: UTF8.self).unicodeScalars.contains("\u{10EEEE}"))
    var kitty = KittyWire()
    try kitty.apply(wire.passedThrough)
    #expect(kitty.uploads == 1)
    #expect(kitty.placements.count == 1)
    #expect(kitty.placements.first?.columns == 8 && kitty.placements.first?.rows == 4)
    // Saved cursor, the outer cell (pane column 3 + 10, row 1 + 2; 1-based), the placement.
    let placed = Array("\u{1B}7\u{1B}[4;14H\u{1B}_Ga=p".utf8)
    #expect(TmuxWire.contains(wire.passedThrough, placed))
    // Moving the pane (a layout change) places it again at the new position.
    renderer.passthroughOrigin = CellPoint(x: 0, y: 0)
    let moved = try TmuxWire(
      renderer.render(frame, images: [Self.tile(at: CellRect(x: 3, y: 1, width: 8, height: 4))]))
    #expect(TmuxWire.contains(moved.passedThrough, Array("\u{1B}7\u{1B}[2;4H\u{1B}_Ga=p".utf8)))
  }

  /// Focus lost (the person switched to another tmux window): the placements are taken off
  /// the outer screen, where they would stay over the other window, and come back after.
  @Test func hidingForFocusOutRemovesPlacementsAndTheNextFrameRestoresThem() throws {
    let renderer = TerminalRenderer(
      graphics: .kitty, insideTmux: true, passthrough: true, kittyPlaceholders: false)
    let frame = FrameBuffer(width: 30, height: 10)
    let images = [Self.tile(at: CellRect(x: 0, y: 0, width: 8, height: 4))]
    _ = renderer.render(frame, images: images)
    let hidden = try TmuxWire(renderer.hideImages())
    #expect(hidden.pane.isEmpty)
    #expect(KittyWire.commands(in: hidden.passedThrough).map { $0.keys["d"] } == ["a"])
    var kitty = KittyWire()
    try kitty.apply(try TmuxWire(renderer.render(frame, images: images)).passedThrough)
    #expect(kitty.placements.count == 1)
  }

  /// Sixel past tmux: the outer screen shows the tile's own pixels at the pane's cells, and
  /// nothing anywhere else.
  @Test func sixelGoesThroughAtThePanesCellOnTheOuterScreen() throws {
    let cell = SixelScrollTests.cell
    let renderer = TerminalRenderer(
      graphics: .sixel, insideTmux: true, passthrough: true, cellPixelSize: cell)
    renderer.passthroughOrigin = Self.origin
    var frame = FrameBuffer(width: 20, height: 8)
    frame.put("status", x: 0, y: 7)
    let tile = Self.tile(at: CellRect(x: 2, y: 1, width: 10, height: 4))
    let wire = try TmuxWire(renderer.render(frame, images: [tile]))
    #expect(!TmuxWire.contains(wire.pane, Array("\u{1B}Pq".utf8)))
    #expect(!TmuxWire.contains(wire.pane, Array("\u{1B}P0;1;0q".utf8)))
    var outer = SixelTerminal(columns: 40, rows: 12, cell: cell)
    outer.apply(wire.passedThrough)
    let expected = try SixelScrollTests.tilePixels(tile)
    for row in 0..<12 {
      for column in 0..<40 {
        let shown = outer.pixels(ofCell: column, row)
        let inside = (12..<22).contains(column) && (3..<7).contains(row)
        if inside {
          let left = (column - 12) * cell.width
          let top = (row - 3) * cell.height
          var wanted: [UInt8] = []
          for y in top..<(top + cell.height) {
            let start = (y * expected.width + left) * 4
            wanted += expected.pixels[start..<(start + cell.width * 4)]
          }
          #expect(shown == wanted, "outer cell (\(column),\(row))")
        } else {
          #expect(shown.allSatisfy { $0 == 0 }, "outer cell (\(column),\(row)) has pixels")
        }
      }
    }
  }

  /// tmux 3.3 drops a sequence over 1 MB whole, and writes its own resets after each one (which
  /// end a sixel split over two): a large sixel goes as bands, each a whole sixel in a
  /// sequence of its own well under the limit, that together draw the image.
  @Test func largeImagesAreChunkedUnderTmuxsLimit() throws {
    var noise = SplitMix64(seed: 7)
    let bitmap = try Bitmap.generated(width: 640, height: 480) { _, _ in
      let value = noise.next()
      return (UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 8), 0, 255)
    }
    let renderer = TerminalRenderer(
      graphics: .sixel, insideTmux: true, passthrough: true,
      cellPixelSize: PixelSize(width: 10, height: 20))
    let frame = FrameBuffer(width: 70, height: 30)
    let bytes = renderer.render(
      frame,
      images: [
        ImagePlacement(
          imageID: 9, bitmap: bitmap, rect: CellRect(x: 0, y: 0, width: 64, height: 24))
      ])
    let wire = try TmuxWire(bytes)
    #expect(wire.sequences > 1)
    #expect(wire.longestSequence < 1 << 20)
    var height = 0
    for content in wire.contents {
      let images = SixelDecoder.decode(content)
      #expect(images.count == 1, "a sequence holds \(images.count) whole sixels")
      guard let image = images.first else { continue }
      #expect(image.width == 640, "a band \(image.width) px wide")
      height += image.height
    }
    #expect(height >= 480, "the bands draw \(height) of 480 rows")
  }

  @Test func wrappingDoublesEveryEscapeAndJoinsBack() throws {
    var out = ByteWriter()
    let content: [UInt8] = [0x1B, 0x5B, 0x41, 0x1B, 0x1B, 0x5C, 0x42]
    TmuxPassthrough.wrap(content, into: &out)
    #expect(
      out.bytes == Array("\u{1B}Ptmux;\u{1B}\u{1B}[A\u{1B}\u{1B}\u{1B}\u{1B}\\B\u{1B}\\".utf8))
    #expect(try TmuxWire(out.bytes).passedThrough == content)
    var none = ByteWriter()
    TmuxPassthrough.wrap([UInt8](), into: &none)
    #expect(none.bytes.isEmpty)
  }

  /// Past tmux the pacer's probe goes inside the frame's last passthrough sequence when the
  /// frame ends with one (tmux writes its resets after every sequence), and after the frame,
  /// as a sequence of its own, when text or another string sequence ends it.
  @Test func theProbeGoesInsideTheFramesLastPassthroughSequence() throws {
    let pacer = LinkPacer(passthrough: true)
    let question = Array("\u{1B}[c".utf8)
    var image = ByteWriter()
    let upload = Array("\u{1B}_Ga=T,f=100;AAAA\u{1B}\\\u{1B}7\u{1B}[5;9H\u{1B}8".utf8)
    TmuxPassthrough.wrap(upload, into: &image)
    let frame = Array("\u{1B}[1;1Hcaption".utf8) + image.bytes
    let inside = try TmuxWire(pacer.appending(pacer.probe, to: frame))
    #expect(inside.sequences == 1, "the probe went in a sequence of its own")
    #expect(inside.passedThrough == upload + question)
    #expect(inside.pane == Array("\u{1B}[1;1Hcaption".utf8))
    // Text after the image, or a title (a string sequence ending the same way): the probe
    // follows as its own sequence, the frame's bytes untouched.
    for tail in ["status", "\u{1B}]2;title\u{1B}\\"] {
      let ending = frame + Array(tail.utf8)
      let after = pacer.appending(pacer.probe, to: ending)
      #expect(after == ending + pacer.probe, "after \(tail.debugDescription)")
      let wire = try TmuxWire(after)
      #expect(wire.sequences == 2 && wire.passedThrough == upload + question)
    }
    // Outside tmux the question simply follows.
    let plain = LinkPacer()
    #expect(plain.appending(plain.probe, to: frame) == frame + question)
  }
}
