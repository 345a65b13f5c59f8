import Testing

@testable import TesseraTerminal

/// A frame written to a slow link a slice at a time can be ended at a cut when a key comes
/// (``PacedFrame``, ``FrameCut``): the terminal then has all of its text and whole sixel rows
/// of its images, and the next frame draws exactly what did not arrive, so the screen ends as
/// if the frame had gone whole, and a tile that left meanwhile leaves nothing behind.
@Suite struct FrameCutTests {
  /// Cells of 20 pixels, as the link bench's: a band of two cell rows is seven sixel rows.
  static let cell = PixelSize(width: 4, height: 20)

  static func frame() -> FrameBuffer {
    var frame = FrameBuffer(width: 16, height: 12)
    frame.put("status", x: 0, y: 11)
    return frame
  }

  /// A banded renderer's first frame of the tile, and the reference screen: the same frame
  /// written whole.
  static func bandedFrame() -> (TerminalRenderer, [UInt8], SixelTerminal) {
    let banded = TerminalRenderer(graphics: .sixel, cellPixelSize: cell)
    banded.linkIsSlow = true
    let bytes = banded.render(frame(), images: [SixelBandTests.tile])
    var reference = SixelTerminal(columns: 16, rows: 12, cell: cell)
    reference.apply(bytes)
    return (banded, bytes, reference)
  }

  @Test func cutsComeAfterTheTextBetweenDrawsAndAfterSixelRows() throws {
    let (renderer, bytes, _) = Self.bandedFrame()
    let cuts = renderer.lastFrameCuts
    let text = try #require(
      bytes.firstIndex(of: UInt8(ascii: "s")), "the status text is in the frame")
    #expect(cuts.count > 5, "5 bands and rows inside them: \(cuts.count) cuts")
    #expect(cuts.contains { $0.rowsDrawn > 0 }, "cuts inside the bands")
    #expect(cuts.allSatisfy { $0.offset > text && $0.offset < bytes.count })
    #expect(cuts.map(\.offset) == cuts.map(\.offset).sorted())
    // Before a draw nothing needs closing; inside a sixel the cut follows a graphics new line
    // and is closed by ST.
    for cut in cuts {
      if cut.closing.isEmpty {
        #expect(bytes[cut.offset] == 0x1B, "a draw starts with its cursor move at \(cut.offset)")
      } else {
        #expect(cut.closing == SixelEncoder.terminator)
        #expect(bytes[cut.offset - 1] == UInt8(ascii: "-"))
      }
    }
  }

  @Test(arguments: [0.3, 0.55, 0.8])
  func aFrameEndedEarlyIsFinishedByTheNext(share: Double) throws {
    let (renderer, bytes, reference) = Self.bandedFrame()
    let tileBytes = renderer.imageBytesInLastFrame
    var paced = PacedFrame(bytes: bytes, cuts: renderer.lastFrameCuts)
    var terminal = SixelTerminal(columns: 16, rows: 12, cell: Self.cell)
    let first = Array(paced.next(room: Int(Double(bytes.count) * share)))
    let (rest, cut) = paced.endEarly()
    let taken = try #require(cut, "a cut after \(first.count) of \(bytes.count) bytes")
    #expect(paced.isDone)
    renderer.endLastFrame(at: taken)
    terminal.apply(first + rest)
    #expect(terminal.unknown.isEmpty, "\(terminal.unknown)")
    let sent = first.count + rest.count
    #expect(sent < bytes.count, "ended early: \(sent) of \(bytes.count) bytes")

    let next = renderer.render(Self.frame(), images: [SixelBandTests.tile])
    terminal.apply(next)
    // Only what did not arrive goes again: at most the cell rows the cut went through.
    let again = renderer.imageBytesInLastFrame
    #expect(again > 0 && again < tileBytes, "\(again) of the tile's \(tileBytes) bytes again")
    #expect(again <= bytes.count - sent + tileBytes / 5, "\(again) bytes drawn again")
    var differing: [String] = []
    for y in 1..<10 {
      for x in 2..<12 where terminal.pixels(ofCell: x, y) != reference.pixels(ofCell: x, y) {
        differing.append("(\(x),\(y))")
      }
    }
    #expect(differing.isEmpty, "cells unlike the frame written whole: \(differing)")
    // At rest nothing more goes.
    _ = renderer.render(Self.frame(), images: [SixelBandTests.tile])
    #expect(renderer.imageBytesInLastFrame == 0)
  }

  /// A tile whose frame was ended early and that is gone by the next frame (the key scrolled
  /// it away) leaves no pixel: the cells it half drew are wiped with the rest of it.
  @Test func aTileCutShortThatLeavesLeavesNothing() throws {
    let (renderer, bytes, _) = Self.bandedFrame()
    var paced = PacedFrame(bytes: bytes, cuts: renderer.lastFrameCuts)
    var terminal = SixelTerminal(columns: 16, rows: 12, cell: Self.cell)
    let first = Array(paced.next(room: bytes.count / 2))
    let (rest, cut) = paced.endEarly()
    renderer.endLastFrame(at: try #require(cut))
    terminal.apply(first + rest)
    terminal.apply(renderer.render(Self.frame(), images: []))
    for y in 0..<11 {
      for x in 0..<16 {
        #expect(terminal.pixels(ofCell: x, y).allSatisfy { $0 == 0 }, "cell (\(x),\(y))")
      }
    }
  }

  @Test func aPacedFrameGoesItsTextWholeThenAsTheLinkTakesIt() {
    let bytes = [UInt8](repeating: 7, count: 100)
    let cuts = [
      FrameCut(offset: 40, closing: [], draw: 0, rowsDrawn: 0),
      FrameCut(offset: 60, closing: [1, 2], draw: 0, rowsDrawn: 1),
    ]
    var paced = PacedFrame(bytes: bytes, cuts: cuts)
    #expect(paced.next(room: 10).count == 40, "what comes before the first cut goes whole")
    #expect(paced.next(room: 0).isEmpty)
    #expect(paced.next(room: 15).count == 15)
    let (rest, cut) = paced.endEarly()
    #expect(cut == cuts[1] && rest == [7, 7, 7, 7, 7, 1, 2])
    #expect(paced.isDone)

    var unpaced = PacedFrame(bytes: bytes, cuts: cuts)
    #expect(unpaced.next(room: nil).count == 100 && unpaced.isDone)

    var late = PacedFrame(bytes: bytes, cuts: cuts)
    _ = late.next(room: 70)
    let (tail, none) = late.endEarly()
    #expect(none == nil && tail.count == 30, "past the last cut the rest goes whole")
  }
}
