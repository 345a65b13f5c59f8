import TesseraUtilities
import Testing

@testable import TesseraTerminal

@Suite struct FrameDifferTests {
  static func randomFrame(
    width: Int, height: Int, using random: inout SplitMix64
  )
    -> FrameBuffer
  {
    var frame = FrameBuffer(width: width, height: height)
    let palette: [CellColor] = [.terminalDefault, .rgb(255, 0, 0), .rgb(0, 128, 255)]
    let glyphs = ["a", "b", "▀", "日", "é", " "]
    for _ in 0..<(width * height / 2) {
      let style = CellStyle(
        foreground: palette.randomElement(using: &random) ?? .terminalDefault,
        background: palette.randomElement(using: &random) ?? .terminalDefault,
        attributes: CellAttributes(rawValue: UInt8.random(in: 0...7, using: &random)))
      frame.put(
        glyphs.randomElement(using: &random) ?? "x", x: Int.random(in: 0..<width, using: &random),
        y: Int.random(in: 0..<height, using: &random), style: style)
    }
    return frame
  }

  @Test func firstFrameClearsThenWritesOnlyNonBlankCells() {
    var frame = FrameBuffer(width: 8, height: 3)
    frame.put("hi", x: 3, y: 1)
    var differ = FrameDiffer()
    var out = ByteWriter()
    let written = differ.diff(previous: nil, next: frame, into: &out)
    #expect(written == 2)
    #expect(String(decoding: out.bytes, as: UTF8.self) == "\u{1B}[0m\u{1B}[2J\u{1B}[2;4Hhi")
  }

  @Test func unchangedFrameWritesNothing() {
    var random = SplitMix64(seed: 7)
    let frame = Self.randomFrame(width: 20, height: 6, using: &random)
    var differ = FrameDiffer()
    var out = ByteWriter()
    differ.diff(previous: nil, next: frame, into: &out)
    var second = ByteWriter()
    #expect(differ.diff(previous: frame, next: frame, into: &second) == 0)
    #expect(second.count == 0)
  }

  @Test func onlyChangedCellsAreWrittenWithShortMoves() {
    var before = FrameBuffer(width: 20, height: 4)
    before.put("aaaaaaaaaaaaaaaaaaaa", x: 0, y: 0)
    var after = before
    after.put("b", x: 5, y: 0)
    after.put("c", x: 7, y: 0)  // One unchanged cell between: reprinted, cheaper than a move.
    after.put("d", x: 15, y: 0)  // Far: a relative move forward.
    after.put("e", x: 0, y: 1)  // Start of the next row: CR LF.
    after.put("f", x: 9, y: 3)  // Elsewhere: absolute.
    var differ = FrameDiffer(cursor: (0, 0), pen: .plain)
    var out = ByteWriter()
    let written = differ.diff(previous: before, next: after, into: &out)
    #expect(written == 5)
    #expect(
      String(decoding: out.bytes, as: UTF8.self)
        == "\u{1B}[5Cbac\u{1B}[7Cd\r\ne\u{1B}[4;10Hf")
  }

  @Test func styleChangesEmitOnlyTheDifference() {
    var out = ByteWriter()
    let red = CellStyle(foreground: .rgb(255, 0, 0))
    SGR.transition(from: .plain, to: red, into: &out)
    var boldRed = red
    boldRed.attributes = [.bold, .dim]
    SGR.transition(from: red, to: boldRed, into: &out)
    var dimOnlyBlueBackground = boldRed
    dimOnlyBlueBackground.attributes = [.dim]
    dimOnlyBlueBackground.background = .rgb(0, 0, 255)
    SGR.transition(from: boldRed, to: dimOnlyBlueBackground, into: &out)
    SGR.transition(from: dimOnlyBlueBackground, to: .plain, into: &out)
    #expect(
      String(decoding: out.bytes, as: UTF8.self)
        == "\u{1B}[38;2;255;0;0m\u{1B}[1;2m\u{1B}[22;2;48;2;0;0;255m\u{1B}[22;39;49m")
  }

  /// mlterm ignores a whole SGR with more than 10 parameters: a reset, bold and two 24-bit
  /// colours (12) go as two sequences, a colour never split, and the terminal's pen ends as
  /// the target's.
  @Test func noSequenceCarriesMoreThanTenParameters() {
    let selected = CellStyle(
      foreground: .rgb(20, 20, 20), background: .rgb(250, 200, 80), attributes: [.bold])
    var out = ByteWriter()
    SGR.transition(from: nil, to: selected, into: &out)
    let text = String(decoding: out.bytes, as: UTF8.self)
    #expect(text == "\u{1B}[0;1;38;2;20;20;20m\u{1B}[48;2;250;200;80m")
    for sequence in text.split(separator: "\u{1B}").map({ $0.dropFirst().dropLast() }) {
      #expect(sequence.split(separator: ";").count <= SGR.maximumParameters, "\(sequence)")
    }
    var terminal = VirtualTerminal(width: 4, height: 1)
    terminal.apply(out.bytes + Array("x".utf8))
    #expect(terminal.screen[0, 0].style == selected)
    // Two colours alone are 10: still one sequence.
    var pair = ByteWriter()
    SGR.transition(
      from: .plain,
      to: CellStyle(foreground: .rgb(1, 2, 3), background: .rgb(4, 5, 6)), into: &pair)
    #expect(String(decoding: pair.bytes, as: UTF8.self) == "\u{1B}[38;2;1;2;3;48;2;4;5;6m")
  }

  @Test func damagedCellsAreRewrittenEvenWhenEqual() {
    var frame = FrameBuffer(width: 4, height: 1)
    frame.put("abcd", x: 0, y: 0)
    var damage = [Bool](repeating: false, count: 4)
    damage[2] = true
    var differ = FrameDiffer(cursor: nil, pen: .plain)
    var out = ByteWriter()
    #expect(differ.diff(previous: frame, next: frame, damaged: damage, into: &out) == 1)
    #expect(String(decoding: out.bytes, as: UTF8.self) == "\u{1B}[1;3Hc")
  }

  @Test func diffBytesReproduceEveryFrameOnAVirtualTerminal() {
    var random = SplitMix64(seed: 42)
    var terminal = VirtualTerminal(width: 17, height: 7)
    var differ = FrameDiffer()
    var previous: FrameBuffer?
    for _ in 0..<40 {
      var frame = previous ?? FrameBuffer(width: 17, height: 7)
      let patch = Self.randomFrame(width: 17, height: 7, using: &random)
      for y in 0..<7 where Bool.random(using: &random) {
        for x in 0..<17 where !patch[x, y].isContinuation && patch[x, y] != .blank {
          frame.put(patch[x, y].text, x: x, y: y, style: patch[x, y].style)
        }
      }
      var out = ByteWriter()
      differ.diff(previous: previous, next: frame, into: &out)
      terminal.apply(out.bytes)
      #expect(terminal.screen == frame)
      #expect(terminal.unknown.isEmpty)
      previous = frame
    }
  }

  @Test func aResizedFrameIsRedrawnFromAClearScreen() {
    var small = FrameBuffer(width: 3, height: 2)
    small.put("abc", x: 0, y: 0)
    var large = FrameBuffer(width: 5, height: 3)
    large.put("xy", x: 3, y: 2)
    var terminal = VirtualTerminal(width: 5, height: 3)
    var differ = FrameDiffer()
    var out = ByteWriter()
    differ.diff(previous: small, next: large, into: &out)
    terminal.apply(out.bytes)
    #expect(terminal.screen == large)
  }
}
