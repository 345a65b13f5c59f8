import TesseraUtilities
import Testing

@testable import TesseraTerminal

@Suite struct InputParserTests {
  static func parse(_ text: String) -> [InputEvent] {
    var parser = InputParser()
    return parser.feed(Array(text.utf8)) + parser.flush()
  }

  @Test(arguments: [
    ("\u{1B}[A", Key.up), ("\u{1B}[B", .down), ("\u{1B}[C", .right), ("\u{1B}[D", .left),
    ("\u{1B}OA", .up), ("\u{1B}OB", .down), ("\u{1B}[5~", .pageUp), ("\u{1B}[6~", .pageDown),
    ("\u{1B}[H", .home), ("\u{1B}[F", .end), ("\u{1B}[1~", .home), ("\u{1B}[4~", .end),
    ("\u{1B}[7~", .home), ("\u{1B}[8~", .end), ("\u{1B}OH", .home), ("\u{1B}OF", .end),
    ("\r", .enter), ("\n", .enter), ("\t", .tab), ("\u{7F}", .backspace),
    ("\u{1B}[3~", .delete), ("\u{1B}[2~", .insert), ("\u{1B}OP", .function(1)),
    ("\u{1B}[15~", .function(5)), ("\u{1B}[24~", .function(12)), (" ", .space),
  ])
  func namedKeys(bytes: String, key: Key) {
    #expect(Self.parse(bytes) == [.key(key)])
  }

  @Test func everyPrintableASCIICharacterIsItself() {
    for byte in UInt8(0x20)...UInt8(0x7E) {
      var parser = InputParser()
      let character = Character(Unicode.Scalar(byte))
      #expect(parser.feed([byte]) == [.key(.character(character))])
      #expect(!parser.needsTimeout)
    }
    #expect(
      Self.parse("jkgGq?0123456789+-")
        == "jkgGq?0123456789+-".map { .key(.character($0)) })
  }

  @Test func controlKeys() {
    #expect(Self.parse("\u{03}") == [.key(.control("c"), [.control])])
    #expect(Self.parse("\u{01}") == [.key(.control("a"), [.control])])
  }

  @Test func modifiedArrowsAndAltKeys() {
    #expect(Self.parse("\u{1B}[1;5A") == [.key(.up, [.control])])
    #expect(Self.parse("\u{1B}[1;2B") == [.key(.down, [.shift])])
    #expect(Self.parse("\u{1B}j") == [.key(.character("j"), [.alt])])
    #expect(Self.parse("\u{1B}[Z") == [.key(.backTab, [.shift])])
  }

  @Test func utf8Characters() {
    #expect(
      Self.parse("é日🙂") == [.key(.character("é")), .key(.character("日")), .key(.character("🙂"))])
  }

  @Test func aLoneEscapeWaitsForTheCallersTimeout() {
    var parser = InputParser()
    #expect(parser.feed([0x1B]) == [])
    #expect(parser.needsTimeout)
    #expect(parser.flush() == [.key(.escape)])
    #expect(!parser.needsTimeout)
  }

  @Test func escapeThenAKeyAfterTheTimeoutAreTwoKeys() {
    var parser = InputParser()
    #expect(parser.feed([0x1B]) == [])
    #expect(parser.flush() == [.key(.escape)])
    #expect(parser.feed(Array("q".utf8)) == [.key(.character("q"))])
    #expect(Self.parse("\u{1B}\u{1B}") == [.key(.escape), .key(.escape)])
  }

  @Test func anUnfinishedSequenceAtTimeoutBecomesEscapeAndKeys() {
    var parser = InputParser()
    #expect(parser.feed(Array("\u{1B}[".utf8)) == [])
    #expect(parser.flush() == [.key(.escape), .key(.character("["))])
  }

  @Test func sequencesSplitAcrossFeedsAtEveryByte() {
    let stream =
      "a\u{1B}[5~\u{1B}[<64;10;5M\u{1B}[1;5A日\u{1B}P>|kitty(0.35)\u{1B}\\\u{1B}[200~x\u{1B}y\u{1B}[201~z"
    let bytes = Array(stream.utf8)
    let whole = Self.parse(stream)
    #expect(
      whole == [
        .key(.character("a")), .key(.pageUp),
        .mouse(MouseEvent(kind: .wheelUp, column: 9, row: 4)), .key(.up, [.control]),
        .key(.character("日")), .reply(.version("kitty(0.35)")), .paste("x\u{1B}y"),
        .key(.character("z")),
      ])
    for split in 1..<bytes.count {
      var parser = InputParser()
      let events = parser.feed(bytes[..<split]) + parser.feed(bytes[split...]) + parser.flush()
      #expect(events == whole, "split at \(split)")
    }
    var byteByByte = InputParser()
    var events: [InputEvent] = []
    for byte in bytes { events += byteByByte.feed([byte]) }
    #expect(events == whole)
  }

  @Test func sgrMouse() {
    #expect(
      Self.parse("\u{1B}[<0;3;4M") == [
        .mouse(MouseEvent(kind: .press(button: 0), column: 2, row: 3))
      ])
    #expect(
      Self.parse("\u{1B}[<0;3;4m") == [
        .mouse(MouseEvent(kind: .release(button: 0), column: 2, row: 3))
      ])
    #expect(
      Self.parse("\u{1B}[<65;1;1M") == [.mouse(MouseEvent(kind: .wheelDown, column: 0, row: 0))])
    #expect(
      Self.parse("\u{1B}[<32;7;2M") == [
        .mouse(MouseEvent(kind: .drag(button: 0), column: 6, row: 1))
      ])
    #expect(
      Self.parse("\u{1B}[<18;5;6M")
        == [.mouse(MouseEvent(kind: .press(button: 2), column: 4, row: 5, modifiers: [.control]))])
  }

  @Test func resizeFocusAndReplies() {
    #expect(
      Self.parse("\u{1B}[48;60;200;1200;2000t") == [
        .resize(TerminalSize(columns: 200, rows: 60, pixelWidth: 2000, pixelHeight: 1200))
      ])
    #expect(Self.parse("\u{1B}[I\u{1B}[O") == [.focus(true), .focus(false)])
    #expect(Self.parse("\u{1B}[?62;4;22c") == [.reply(.primaryDeviceAttributes([62, 4, 22]))])
    #expect(Self.parse("\u{1B}[?2026;2$y") == [.reply(.modeReport(mode: 2026, state: 2))])
    #expect(
      Self.parse("\u{1B}[6;20;10t") == [.reply(.cellPixelSize(PixelSize(width: 10, height: 20)))])
    #expect(
      Self.parse("\u{1B}_Gi=31;OK\u{1B}\\") == [.reply(.kittyGraphics(imageID: 31, message: "OK"))])
  }

  @Test func unknownSequencesAreDroppedWithoutLosingWhatFollows() {
    #expect(
      Self.parse("\u{1B}[99zq\u{1B}]0;title\u{07}k") == [
        .key(.character("q")), .key(.character("k")),
      ])
  }

  @Test func garbageNeverCrashesAndTheParserRecovers() {
    var random = SplitMix64(seed: 99)
    var parser = InputParser()
    for _ in 0..<2000 {
      let count = Int.random(in: 1...64, using: &random)
      var bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) }
      if Bool.random(using: &random) { bytes.insert(0x1B, at: 0) }
      _ = parser.feed(bytes)
      if Int.random(in: 0..<4, using: &random) == 0 { _ = parser.flush() }
    }
    _ = parser.feed(Array("\u{1B}[201~".utf8))  // Ends a paste the garbage may have begun.
    _ = parser.flush()
    #expect(parser.feed(Array("q".utf8)) == [.key(.character("q"))])
  }

  @Test func endlessSequencesAndPastesAreBounded() {
    var parser = InputParser()
    let dcs =
      [0x1B, 0x50] + [UInt8](repeating: 0x41, count: InputParser.maximumSequenceLength + 10)
    #expect(parser.feed(dcs) == [])
    #expect(parser.feed(Array("q".utf8)) == [.key(.character("q"))])
    let paste =
      Array("\u{1B}[200~".utf8)
      + [UInt8](repeating: 0x61, count: InputParser.maximumPasteLength + 100)
      + Array("\u{1B}[201~".utf8)
    let events = parser.feed(paste)
    #expect(events.count == 1)
    if case .paste(let text) = events.first {
      #expect(text.utf8.count == InputParser.maximumPasteLength)
    } else {
      Issue.record("expected a paste")
    }
  }
}
