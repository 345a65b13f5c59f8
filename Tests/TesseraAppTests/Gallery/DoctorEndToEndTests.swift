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
    let tmux = try Tmux(
      command: ["sh", "-c", "\"$0\" doctor > \(Tmux.quote(report))", GalleryBinary.path],
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
    // tmux marks the pane dead a moment before it records the status.
    try tmux.waitFor("the doctor's exit status") { _ in
      !((try? tmux.paneValue("pane_dead_status")) ?? "").isEmpty
    }
    let status = try tmux.paneValue("pane_dead_status")
    #expect(status == "1", "exit status \(status)")
    let written = try String(contentsOfFile: report, encoding: .utf8)
    #expect(written.contains("images         blocks"))
    #expect(!written.contains("\u{1B}"), "the file holds the report, not escape codes")
  }
}
