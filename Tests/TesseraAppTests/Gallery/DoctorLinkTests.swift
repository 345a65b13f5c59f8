import Foundation
import TesseraTestSupport
import Testing

@testable import TesseraBench

extension LinkModelGalleries {
  /// `tessera doctor` measures the link to the terminal (issue 34, item 5): run across
  /// `tessera bench link`'s modelled link at known rates, the rate it reports is within a
  /// quarter of the link's. The fastest is 2.5 MB/s, not the 25: the model terminal reads
  /// about 7 MB/s in a debug build on an idle machine, less beside the other end-to-end suites,
  /// and the doctor then reports the model's speed (rightly: it is what the terminal read). So the
  /// rate expected is the link's or, where slower, the fastest the model read the test transfer's
  /// bytes (``LinkSession/fastestReading(of:)``): a run beside the other suites once read
  /// 1.8 MB/s of a 2.5-MB/s link.
  @Suite(.serialized, .timeLimit(.minutes(2))) struct DoctorLinkTests {
    /// The rate in the report's link line ("link           244.1 KB/s, round trip …").
    static func reportedRate(in text: String) -> Double? {
      guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("link ") }) else {
        return nil
      }
      let words = line.split(separator: " ")
      guard words.count >= 3, let value = Double(words[1]) else { return nil }
      let scale: [Substring: Double] = ["B/s,": 1, "KB/s,": 1e3, "MB/s,": 1e6, "GB/s,": 1e9]
      return scale[words[2]].map { value * $0 }
    }

    /// The test transfer's size in the link line ("(a 131.1 KB test transfer)").
    static func transferBytes(in text: String) -> Double? {
      guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("link ") }),
        let open = line.range(of: "(a ")
      else { return nil }
      let words = line[open.upperBound...].split(separator: " ")
      guard words.count >= 2, let value = Double(words[0]) else { return nil }
      let scale: [Substring: Double] = ["B": 1, "KB": 1e3, "MB": 1e6, "GB": 1e9]
      return scale[words[1]].map { value * $0 }
    }

    @Test(arguments: [250e3, 1e6, 2.5e6])
    func theReportedRateIsTheLinks(bytesPerSecond: Double) async throws {
      let folder = TemporaryFolder.Owned(prefix: "tessera-doctor-link")
      var environment = ProcessInfo.processInfo.environment
      for name in ["TMUX", "TMUX_PANE", "KITTY_WINDOW_ID", "TERM_PROGRAM"] {
        environment[name] = nil
      }
      environment["TERM"] = "xterm-256color"
      environment["SSH_CONNECTION"] = "127.0.0.1 50000 127.0.0.1 22"
      let session = try LinkSession(
        arguments: [GalleryBinary.path, "doctor"], environment: environment,
        terminal: ModelTerminal(
          flavour: .xterm, columns: 100, rows: 30, cellWidth: 10, cellHeight: 20),
        bytesPerSecond: bytesPerSecond, delay: 0.02, bufferLimit: 256 << 10,
        errorLog: folder.url.appendingPathComponent("stderr").path)
      defer { session.stop() }
      let done = await session.pumpOffThePool(until: { $0.exited && $0.linkIsIdle }, timeout: 60)
      let text = session.terminal.text
      #expect(done, "the doctor did not finish:\n\(text)")
      let rate = try #require(Self.reportedRate(in: text), "no link line:\n\(text)")
      let transfer = try #require(Self.transferBytes(in: text), "no test transfer:\n\(text)")
      let read = session.fastestReading(of: Int(transfer)) ?? bytesPerSecond
      let expected = min(bytesPerSecond, read)
      #expect(
        abs(rate - expected) <= 0.25 * expected,
        "reported \(rate) B/s on a \(bytesPerSecond)-B/s link the model read at \(read) B/s:\n\(text)"
      )
    }
  }
}
