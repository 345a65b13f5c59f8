import Foundation
import TesseraTestSupport
import Testing

@testable import TesseraGallery

/// While the gallery runs, what is written to standard error goes to the log, bounded, and
/// standard error is put back after. Serialized: it takes the process's file descriptor 2.
@Suite(.serialized, .timeLimit(.minutes(1)))
struct StandardErrorLogTests {
  @Test func whatIsWrittenToStandardErrorGoesToTheLogAndIsSaidAfter() throws {
    let root = TemporaryFolder.make(prefix: "tessera-stderr")
    defer { try? FileManager.default.removeItem(at: root) }
    let before = fcntl(STDERR_FILENO, F_GETFL)
    let log = try #require(StandardErrorLog(environment: ["XDG_STATE_HOME": root.path]))
    #expect(log.path == root.path + "/tessera/tessera.log")
    let message = Array("libjxl: something went wrong\n".utf8)
    _ = message.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    let written = log.stop()
    #expect(written.kept == message.count && written.dropped == 0)
    #expect(
      try String(contentsOfFile: log.path, encoding: .utf8) == "libjxl: something went wrong\n")
    #expect(log.summary(kept: written.kept, dropped: 0)?.contains(log.path) == true)
    #expect(log.summary(kept: 0, dropped: 0) == nil)
    // Standard error is what it was.
    #expect(fcntl(STDERR_FILENO, F_GETFL) == before)
  }

  @Test func aFloodIsCutAtTheSessionLimitAndALargeLogStartsAfresh() throws {
    let root = TemporaryFolder.make(prefix: "tessera-stderr-flood")
    defer { try? FileManager.default.removeItem(at: root) }
    let folder = root.appendingPathComponent("tessera")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let path = folder.appendingPathComponent("tessera.log").path
    try Data(repeating: 0x41, count: StandardErrorLog.fileLimit + 1).write(
      to: URL(fileURLWithPath: path))
    let log = try #require(StandardErrorLog(environment: ["XDG_STATE_HOME": root.path]))
    let chunk = [UInt8](repeating: 0x42, count: 64 * 1024)
    for _ in 0..<8 {  // 512 KiB, twice the limit
      _ = chunk.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }
    let written = log.stop()
    #expect(written.kept == StandardErrorLog.sessionLimit)
    // Standard error is the process's: a suite running beside this one may write to it while
    // it is captured (CI's parallel run: 578 bytes more), never less than the flood's excess.
    #expect(written.dropped >= 8 * chunk.count - StandardErrorLog.sessionLimit)
    #expect(written.dropped < 8 * chunk.count, "\(written.dropped) bytes dropped")
    let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int
    #expect(size == StandardErrorLog.sessionLimit, "the old log was not started afresh")
    #expect(
      log.summary(kept: written.kept, dropped: written.dropped)?.contains("more bytes not kept")
        == true)
  }
}
