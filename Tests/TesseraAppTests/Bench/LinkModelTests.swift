import Foundation
import Testing

@testable import TesseraBench

/// `tessera bench link`'s two halves: the link (its arithmetic of rate and delay) and the model
/// terminal (what it answers, what it counts as a picture). What the bench times must be what
/// it says it is (no timing here: times are the tests' own numbers).
@Suite(.timeLimit(.minutes(1))) struct LinkModelTests {
  @Test func bytesLeaveAtTheRateAndArriveADelayLater() {
    var link = SlowLink(bytesPerSecond: 1000, delay: 0.1)
    link.send(Array(repeating: 7, count: 2500), at: 10)
    // 2,500 bytes at 1,000 a second: on the line until 12.5, the last of them at 12.6.
    #expect(link.backlog(at: 10) == 2500)
    #expect(link.backlog(at: 11.5) == 1000)
    #expect(link.backlog(at: 13) == 0)
    #expect(link.arrived(by: 11.0).isEmpty, "the first packet leaves at 11.448")
    #expect(link.arrived(by: 11.548).count == SlowLink.packetSize)
    #expect(!link.isIdle)
    #expect(link.arrived(by: 12.6).count == 2500 - SlowLink.packetSize)
    #expect(link.isIdle && link.sent == 2500 && link.delivered == 2500)
    // A second send waits for the line, not for the delay: the link is a pipe, not a queue of
    // round trips.
    link.send([1], at: 20)
    #expect(abs((link.nextArrival ?? 0) - 20.101) < 1e-9, "\(String(describing: link.nextArrival))")
  }

  @Test func theModelAnswersAsTheTerminalItModels() {
    var kitty = ModelTerminal(flavour: .kitty, columns: 80, rows: 24, cellWidth: 10, cellHeight: 20)
    let answers = String(
      decoding: kitty.read(
        Array(
          "\u{1B}_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\u{1B}\\\u{1B}_Gi=32,s=1,v=1,a=q,t=t,f=24;L3RtcA==\u{1B}\\\u{1B}[>0q\u{1B}[?2026$p\u{1B}[16t\u{1B}[c"
            .utf8)), as: UTF8.self)
    #expect(
      answers
        == "\u{1B}_Gi=31;OK\u{1B}\\\u{1B}_Gi=32;ENOENT:No such file or directory\u{1B}\\\u{1B}P>|kitty(0.26.5)\u{1B}\\\u{1B}[?2026;2$y\u{1B}[6;20;10t\u{1B}[?62;c"
    )
    var xterm = ModelTerminal(flavour: .xterm, columns: 80, rows: 24, cellWidth: 10, cellHeight: 20)
    let xtermAnswers = String(
      decoding: xterm.read(Array("\u{1B}[c\u{1B}[3;5H\u{1B}[6n".utf8)), as: UTF8.self)
    #expect(xtermAnswers == "\u{1B}[?63;1;2;4;6;9;15;22c\u{1B}[3;5R", "sixel (4) in DA1")
  }

  @Test func textLandsWhereTheCursorIsAndScrollsWithItsRegion() {
    var screen = ModelTerminal(flavour: .xterm, columns: 20, rows: 5, cellWidth: 10, cellHeight: 20)
    _ = screen.read(Array("\u{1B}[2;3Hé★x\u{1B}[5;1Hbar\u{1B}[1G\u{1B}[2Cz".utf8))
    #expect(screen.line(1) == "  é★x               ")
    #expect(screen.line(4) == "baz                 ")
    // Rows 2–4 scroll up one: row 2's text leaves, the status row stays.
    _ = screen.read(Array("\u{1B}[2;4r\u{1B}[1S\u{1B}[r".utf8))
    #expect(screen.line(1).trimmingCharacters(in: .whitespaces).isEmpty)
    #expect(screen.line(4) == "baz                 ")
    _ = screen.read(Array("\u{1B}[H\u{1B}[2J".utf8))
    #expect(screen.text.allSatisfy { $0 == " " || $0 == "\n" })
  }

  /// What tmux redraws a pane with besides plain moves: repeats, inserted and deleted lines and
  /// characters, reverse index; combining marks take no cell.
  @Test func tmuxsRedrawSequencesLandAsInATerminal() {
    var screen = ModelTerminal(flavour: .xterm, columns: 10, rows: 4, cellWidth: 10, cellHeight: 20)
    _ = screen.read(
      Array("\u{1B}[1;1Hab\u{1B}(B\u{1B}[3b\u{1B}[2;1Hrow2\u{1B}[3;1Hrow3\u{1B}[4;1Hrow4".utf8))
    #expect(screen.line(0) == "abbbb     ", "REP repeats the last character")
    // Insert a line at row 2: rows 2–3 move down, row 4 leaves; then delete it again.
    _ = screen.read(Array("\u{1B}[2;1H\u{1B}[L".utf8))
    #expect(
      [screen.line(1), screen.line(2), screen.line(3)] == [
        "          ", "row2      ", "row3      ",
      ])
    _ = screen.read(Array("\u{1B}[2;1H\u{1B}[M".utf8))
    #expect(
      [screen.line(1), screen.line(2), screen.line(3)] == [
        "row2      ", "row3      ", "          ",
      ])
    // Two characters inserted at column 2 of row 1, then three deleted at column 1.
    _ = screen.read(Array("\u{1B}[1;2H\u{1B}[2@".utf8))
    #expect(screen.line(0) == "a  bbbb   ")
    _ = screen.read(Array("\u{1B}[1;1H\u{1B}[3P".utf8))
    #expect(screen.line(0) == "bbbb      ")
    // Reverse index at the top scrolls the screen down.
    _ = screen.read(Array("\u{1B}[1;1H\u{1B}Mtop".utf8))
    #expect(
      [screen.line(0), screen.line(1), screen.line(3)] == [
        "top       ", "bbbb      ", "row3      ",
      ])
    _ = screen.read(Array("\u{1B}[4;1H\u{1B}[2Ke\u{0301}x".utf8))
    #expect(screen.line(3) == "ex        ", "the accent takes no cell")
  }

  @Test func aKittyPictureCountsOnceItsLastChunkArrivedAndUntilItIsDeleted() {
    var screen = ModelTerminal(
      flavour: .kitty, columns: 80, rows: 24, cellWidth: 10, cellHeight: 20)
    _ = screen.read(Array("\u{1B}_Ga=t,t=d,f=100,s=4,v=4,i=5,q=2,m=1;AAAA\u{1B}\\".utf8))
    _ = screen.read(Array("\u{1B}[3;4H\u{1B}_Ga=p,i=5,p=1,c=10,r=5,C=1,q=2\u{1B}\\".utf8))
    #expect(screen.pictures == 0, "placed before its data is whole: nothing shows")
    _ = screen.read(Array("\u{1B}_Gm=0;AAAA\u{1B}\\".utf8))
    #expect(screen.pictures == 1)
    #expect(screen.picturesCompleted == 1)
    // Moved (same ids, another cell), then a second placement of it, then one deleted.
    _ = screen.read(Array("\u{1B}[10;1H\u{1B}_Ga=p,i=5,p=1,c=10,r=5,C=1\u{1B}\\".utf8))
    #expect(screen.pictures == 1)
    _ = screen.read(Array("\u{1B}[1;1H\u{1B}_Ga=p,i=5,p=2,c=10,r=5,C=1\u{1B}\\".utf8))
    #expect(screen.pictures == 2)
    #expect(screen.pictureColumns == 1)
    _ = screen.read(Array("\u{1B}_Ga=d,d=i,i=5,p=1,q=2\u{1B}\\".utf8))
    #expect(screen.pictures == 1)
    _ = screen.read(Array("\u{1B}_Ga=d,d=A,q=2\u{1B}\\".utf8))
    #expect(screen.pictures == 0)
    // timg's kind: transmit and display with no id, each its own image.
    for _ in 0..<3 {
      _ = screen.read(Array("\u{1B}_Ga=T,f=100,m=1;AAAA\u{1B}\\\u{1B}_Gm=0;AAAA\u{1B}\\".utf8))
    }
    #expect(screen.pictures == 3)
    #expect(screen.picturesCompleted == 4)
  }

  /// As kitty before 0.38.1 does: a deletion that frees (`d=I`, `d=A`) between a load's chunks
  /// drops the load, and its later chunks make nothing; a placement, text, a query or a hide
  /// (`d=i`) between them does not.
  @Test(arguments: ["\u{1B}_Ga=d,d=I,i=9,q=2\u{1B}\\", "\u{1B}_Ga=d,d=A,q=2\u{1B}\\"])
  func aDeletionBetweenChunksDropsTheLoad(between: String) {
    var screen = ModelTerminal(
      flavour: .kitty, columns: 80, rows: 24, cellWidth: 10, cellHeight: 20)
    let first = "\u{1B}_Ga=t,t=d,f=100,s=4,v=4,i=5,q=2,m=1;AAAA\u{1B}\\"
    let place = "\u{1B}[3;4H\u{1B}_Ga=p,i=5,p=1,c=10,r=5,C=1,q=2\u{1B}\\"
    let more = "\u{1B}_Gm=1;AAAA\u{1B}\\"
    let last = "\u{1B}_Gm=0;AAAA\u{1B}\\"
    _ = screen.read(Array((first + place + more + between + more + last).utf8))
    #expect(screen.pictures == 0, "the load went on across \(between.debugDescription)")
    #expect(screen.loadsDropped == 1)
    #expect(screen.picturesCompleted == 0)
    // The next load, and a load with text and a placement between its chunks, are whole.
    _ = screen.read(
      Array((first + "text\u{1B}[c\u{1B}_Ga=d,d=i,i=9,q=2\u{1B}\\" + place + more + last).utf8))
    #expect(screen.pictures == 1)
    #expect(screen.loadsDropped == 1)
  }

  /// kitty before 0.38.1: freeing an image frees every image created after it that has no
  /// placement; a placed one stays.
  @Test func aKittyFreeTakesTheLaterImagesWithoutAPlacement() {
    var screen = ModelTerminal(
      flavour: .kitty, columns: 80, rows: 24, cellWidth: 10, cellHeight: 20)
    for id in 1...3 {
      _ = screen.read(Array("\u{1B}_Ga=t,t=d,f=100,s=4,v=4,i=\(id),q=2;AAAA\u{1B}\\".utf8))
    }
    // 2 placed, 3 not: freeing 1 takes 3 as well.
    for id in [1, 2, 3] {
      _ = screen.read(Array("\u{1B}[1;\(id * 20)H\u{1B}_Ga=p,i=\(id),p=1,q=2\u{1B}\\".utf8))
    }
    _ = screen.read(Array("\u{1B}_Ga=d,d=i,i=3,q=2\u{1B}\\".utf8))
    #expect(screen.pictures == 2)
    _ = screen.read(Array("\u{1B}_Ga=d,d=I,i=1,q=2\u{1B}\\".utf8))
    #expect(screen.pictures == 1)
    // 3 placed again: kitty no longer has it.
    _ = screen.read(Array("\u{1B}[1;60H\u{1B}_Ga=p,i=3,p=1,q=2\u{1B}\\".utf8))
    #expect(screen.pictures == 1, "image 3 outlived the free of 1")
  }

  @Test func aSixelShowsUntilTextOrAnotherSixelCoversAllOfIt() {
    var screen = ModelTerminal(
      flavour: .xterm, columns: 40, rows: 12, cellWidth: 10, cellHeight: 20)
    // 100×40 pixels: 10×2 cells at (0, 1).
    _ = screen.read(Array("\u{1B}[2;1H\u{1B}P0;1;0q\"1;1;100;40#0~~\u{1B}\\".utf8))
    #expect(screen.pictures == 1)
    // Another beside it, a column apart: two pictures; below it, touching: one (a tile in
    // bands).
    _ = screen.read(Array("\u{1B}[2;12H\u{1B}P0;1;0q\"1;1;100;40#0~~\u{1B}\\".utf8))
    #expect(screen.pictures == 2)
    _ = screen.read(Array("\u{1B}[4;1H\u{1B}P0;1;0q\"1;1;100;40#0~~\u{1B}\\".utf8))
    #expect(screen.pictures == 2)
    #expect(screen.picturesCompleted == 3)
    // A piece beside the band at (0, 3), touching it: one picture, in one column of tiles.
    _ = screen.read(Array("\u{1B}[4;11H\u{1B}P0;1;0q\"1;1;10;40#0~~\u{1B}\\".utf8))
    #expect(screen.pictures == 2 && screen.pictureColumns == 2, "\(screen.pictureColumns)")
    // Text over the one beside: gone.
    _ = screen.read(Array("\u{1B}[2;12H\(String(repeating: " ", count: 10))".utf8))
    _ = screen.read(Array("\u{1B}[3;12H\(String(repeating: " ", count: 10))".utf8))
    #expect(screen.pictures == 1)
    // Scrolled off the top of its region: gone.
    _ = screen.read(Array("\u{1B}[2;11r\u{1B}[6S\u{1B}[r".utf8))
    #expect(screen.pictures == 0)
  }

  @Test func theStatusBarsFiguresAreRead() {
    var screen = ModelTerminal(
      flavour: .kitty, columns: 120, rows: 3, cellWidth: 10, cellHeight: 20)
    _ = screen.read(
      Array(
        "\u{1B}[3;1H photos 13–24 of 60 │ ✓ 12 loaded │ link 245.1 KB/s, previews while moving".utf8
      ))
    #expect(LinkRun.meter(in: screen) == 245_100)
    #expect(LinkRun.visibleCount(inStatusBar: screen.line(2)) == 12)
    #expect(LinkBench.bytesPerSecond("2mbit") == 250_000)
    #expect(LinkBench.bytesPerSecond("250kB") == 250_000)
    #expect(LinkBench.bytesPerSecond("fast") == nil)
    #expect(LinkBench.seconds("40ms") == 0.04)
    #expect(LinkBench.seconds("0.5s") == 0.5)
  }
}
