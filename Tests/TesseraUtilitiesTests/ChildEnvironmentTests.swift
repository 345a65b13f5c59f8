import Foundation
import Testing

@testable import TesseraUtilities

/// Every program Tessera starts gets the environment without the VIPSHOME Tessera set for
/// itself before main (this test process has it too: CVipsShim is linked into it), and
/// otherwise the whole of this process's.
@Suite(.timeLimit(.minutes(1)))
struct ChildEnvironmentTests {
  static let ownHome = "/nonexistent/tessera-loads-photo-modules-only"

  @Test func itIsThisProcesssEnvironmentLessTesserasVipshome() throws {
    let own = ProcessInfo.processInfo.environment
    try #require(own["VIPSHOME"] == Self.ownHome, "VIPSHOME is \(own["VIPSHOME"] ?? "unset")")
    let child = ChildEnvironment.dictionary
    #expect(child["VIPSHOME"] == nil)
    #expect(child["PATH"] == own["PATH"])
    #expect(child.count == own.count - 1, "\(child.count) variables of \(own.count)")
  }

  @Test func aHelpersOutputIsReadWithoutIt() throws {
    let said = ChildProcess.output(
      of: "sh", arguments: ["-c", "echo \"${VIPSHOME-unset} ${PATH:+path}\""], timeout: 10)
    #expect(said == "unset path\n")
  }

  @Test func aRunProgramDoesNotInheritIt() throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("tessera-child-env-\(UUID().uuidString.prefix(8))")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let outputPath = folder.appendingPathComponent("out").path
    let output = open(outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    try #require(output >= 0, "could not create \(outputPath): errno \(errno)")
    let status = ChildProcess.run(
      "/bin/sh", arguments: ["-c", "echo \"${VIPSHOME-unset}\"; cat"], input: Array("in\n".utf8),
      output: output)
    close(output)
    #expect(status == 0)
    #expect(try String(contentsOfFile: outputPath, encoding: .utf8) == "unset\nin\n")
  }
}
