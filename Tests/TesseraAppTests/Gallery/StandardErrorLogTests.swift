import Foundation
import TesseraTestSupport
import Testing

@testable import TesseraGallery

/// While the gallery runs, what is written to standard error goes to the log, bounded, and
/// standard error is put back after. The tests give the log a descriptor of their own in
/// standard error's place: the process's own is shared with the suites beside them, whose
/// children inherited the pipe and held it open (CI: nothing read within the second).
/// Serialized: one log at a time.
@Suite(.serialized, .timeLimit(.minutes(1)))
struct StandardErrorLogTests {
  @Test func whatIsWrittenToStandardErrorGoesToTheLogAndIsSaidAfter() throws {
    let root = TemporaryFolder.make(prefix: "tessera-stderr")
    defer { try? FileManager.default.removeItem(at: root) }
    let standardError = open("/dev/null", O_WRONLY | O_CLOEXEC)
    try #require(standardError >= 0)
    defer { close(standardError) }
    let before = fcntl(standardError, F_GETFL)
    let log = try #require(
      StandardErrorLog(environment: ["XDG_STATE_HOME": root.path], descriptor: standardError))
    #expect(log.path == root.path + "/tessera/tessera.log")
    let message = Array("libjxl: something went wrong\n".utf8)
    _ = message.withUnsafeBytes { write(standardError, $0.baseAddress, $0.count) }
    let written = log.stop()
    #expect(written.kept == message.count && written.dropped == 0)
    #expect(
      try String(contentsOfFile: log.path, encoding: .utf8) == "libjxl: something went wrong\n")
    #expect(log.summary(kept: written.kept, dropped: 0)?.contains(log.path) == true)
    #expect(log.summary(kept: 0, dropped: 0) == nil)
    // Standard error is what it was.
    #expect(fcntl(standardError, F_GETFL) == before)
  }

  @Test func aFloodIsCutAtTheSessionLimitAndALargeLogStartsAfresh() throws {
    let root = TemporaryFolder.make(prefix: "tessera-stderr-flood")
    defer { try? FileManager.default.removeItem(at: root) }
    let folder = root.appendingPathComponent("tessera")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let path = folder.appendingPathComponent("tessera.log").path
    try Data(repeating: 0x41, count: StandardErrorLog.fileLimit + 1).write(
      to: URL(fileURLWithPath: path))
    let standardError = open("/dev/null", O_WRONLY | O_CLOEXEC)
    try #require(standardError >= 0)
    defer { close(standardError) }
    let log = try #require(
      StandardErrorLog(environment: ["XDG_STATE_HOME": root.path], descriptor: standardError))
    let chunk = [UInt8](repeating: 0x42, count: 64 * 1024)
    for _ in 0..<8 {  // 512 KiB, twice the limit
      _ = chunk.withUnsafeBytes { write(standardError, $0.baseAddress, $0.count) }
    }
    let written = log.stop()
    #expect(written.kept == StandardErrorLog.sessionLimit)
    #expect(
      written.dropped == 8 * chunk.count - StandardErrorLog.sessionLimit,
      "\(written.dropped) bytes dropped")
    let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int
    #expect(size == StandardErrorLog.sessionLimit, "the old log was not started afresh")
    #expect(
      log.summary(kept: written.kept, dropped: written.dropped)?.contains("more bytes not kept")
        == true)
  }
}
