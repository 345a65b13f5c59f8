import Foundation
import TesseraTestSupport
import Testing

/// The replay that stands for Konsole's missing text getter: what it drops and what it keeps
/// decide where every caption is read, so a replay that lost a cursor move or kept an image's
/// payload as text would misplace them all.
@Suite(.timeLimit(.minutes(1)))
struct TerminalReplayTests {
  static let escape = "\u{1B}"

  @Test func dropsImagePayloadsAndKeepsEverythingElse() {
    let kitty = "\(Self.escape)_Ga=T,f=100,i=7;iVBORw0KGgo=\(Self.escape)\\"
    let sixel = "\(Self.escape)Pq#0;2;0;0;0~~@@vv\(Self.escape)\\"
    let iTerm2 = "\(Self.escape)]1337;File=inline=1;width=4:AAAA\u{07}"
    let title = "\(Self.escape)]2;Tessera\u{07}"
    let move = "\(Self.escape)[3;5H"
    let input = "a" + kitty + "b" + sixel + move + "c" + iTerm2 + title + "d"
    let output = String(decoding: TerminalReplay.withoutGraphics(Array(input.utf8)), as: UTF8.self)
    #expect(output == "ab" + move + "c" + title + "d")
  }

  @Test func anUnfinishedPayloadIsDroppedToTheEnd() {
    let input = "text\(Self.escape)_Ga=T;AAAA"
    let output = TerminalReplay.withoutGraphics(Array(input.utf8))
    #expect(String(decoding: output, as: UTF8.self) == "text")
  }

  @Test func scriptsOwnLinesAreNotOutput() {
    let record = Data(
      ("Script started on 2026-11-26 [COMMAND=\"x\"]\nhello\r\n"
        + "\nScript done on 2026-11-26 [COMMAND_EXIT_CODE=\"0\"]\n").utf8)
    #expect(String(decoding: TerminalReplay.withoutHeader(record), as: UTF8.self) == "hello\r\n")
    let bare = Data("hello".utf8)
    #expect(TerminalReplay.withoutHeader(bare).elementsEqual(bare))
  }

  /// A record written by `script` around a program that places text with cursor moves, clears
  /// and overwrites, and sends a kitty image and a query: the replay's screen has each word
  /// where the moves put it, and nothing of the image or of tmux's answer to the query.
  @Test(
    .enabled(
      if: ["tmux", "script"].allSatisfy { program in
        ["/usr/bin", "/bin"].contains {
          FileManager.default.isExecutableFile(atPath: "\($0)/\(program)")
        }
      }))
  func theReplayedScreenHasTheTextWhereTheProgramPutIt() throws {
    let folder = TemporaryFolder.make(prefix: "tessera-replay")
    defer { try? FileManager.default.removeItem(at: folder) }
    let record = folder.appendingPathComponent("record").path
    let program =
      #"printf '\033[?1049h\033[2J\033[1;1Hold title\033[1;1H\033[2Knew title'"#
      + #"'\033[5;10H#42 caption\033_Ga=T,f=24,s=1,v=1;AAAA\033\\\033[c\033[8;1Hstatus'"#
    let result = try Spawn.run(
      TerminalReplay.recording(["sh", "-c", program], into: record), capturing: true)
    #expect(result.status == 0, "script failed: \(result.output)")
    let text = try TerminalReplay.text(ofRecord: record, columns: 40, rows: 8)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map {
      String($0).replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression)
    }
    #expect(lines.count >= 8)
    #expect(lines.first == "new title")
    #expect(lines.dropFirst(4).first == "         #42 caption")
    #expect(lines.dropFirst(7).first == "status")
    #expect(lines.filter { !$0.isEmpty }.count == 3, "stray text: \(lines)")
  }
}
