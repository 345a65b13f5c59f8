import Foundation
import TesseraTestSupport
import Testing

/// `tessera doctor` as a person runs it, in tmux with no terminal outside (no client): it
/// finds tmux, draws the half-block test image, says why only half blocks work and what would
/// fix it, exits 1, and also writes the report to standard output when that is a file.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct DoctorEndToEndTests {
  @Test func insideTmuxWithoutPassthroughItSaysWhyAndExitsOne() throws {
    let folder = TemporaryFolder.make(prefix: "tessera-doctor")
    defer { try? FileManager.default.removeItem(at: folder) }
    let report = folder.appendingPathComponent("report.txt").path
    let statusFile = folder.appendingPathComponent("status").path
    // The shell records the exit status: tmux 3.3a's `pane_dead_status` is sometimes never
    // set.
    let tmux = try Tmux(
      command: [
        "sh", "-c", "\"$0\" doctor > \(Tmux.quote(report)); echo $? > \(Tmux.quote(statusFile))",
        GalleryBinary.path,
      ],
      columns: 100, rows: 30)
    let screen = try tmux.waitFor("the doctor's report") { $0.contains("exit status") }
    let plain = Tmux.plain(screen)
    #expect(plain.contains("tmux           3."))
    #expect(plain.contains("passthrough off"))
    #expect(plain.contains("images         blocks"))
    #expect(plain.contains("because inside tmux with allow-passthrough off"))
    #expect(plain.contains("images: half blocks only (exit status 1)"))
    // The half-block test image: a row of ▀ cells under its label.
    #expect(plain.split(separator: "\n").contains { $0.filter { $0 == "▀" }.count >= 20 })
    try tmux.waitFor("the doctor to exit") { _ in
      ((try? String(contentsOfFile: statusFile, encoding: .utf8)) ?? "").hasSuffix("\n")
    }
    #expect(try String(contentsOfFile: statusFile, encoding: .utf8) == "1\n")
    let written = try String(contentsOfFile: report, encoding: .utf8)
    #expect(written.contains("images         blocks"))
    #expect(!written.contains("\u{1B}"), "the file holds the report, not escape codes")
  }
}
