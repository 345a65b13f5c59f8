import Foundation
import TesseraUtilities

/// `tessera doctor`'s link test: the terminal's round trip (a DA1 question alone), then a test
/// transfer (spaces over the doctor's own line, then DA1: the answer comes once the terminal
/// has read them all) timed from its first byte to the answer, less the round trip. A small
/// transfer first; a larger one sized to last about ``targetSeconds`` at the rate the small one
/// showed, so a fast link is measured over more than its round trip's jitter and a slow one
/// is not kept waiting. The terminal's own account, as ``LinkPacer`` keeps it: how fast
/// `write` returned says nothing across SSH, where a pty and sshd take megabytes at once.
///
/// The capability probe's late answers are awaited first
/// (``TerminalSession/awaitLateProbeAnswers(timeout:)``), so every answer is its own question's.
///
/// - Complexity: O(bytes sent), at most ``largestTransfer`` plus ``firstTransfer``.
public enum LinkTest {
  public struct Result: Sendable, Equatable {
    /// The shortest round trip seen, in seconds.
    public var roundTrip: Double
    /// Bytes a second the terminal read, from the larger transfer.
    public var bytesPerSecond: Double
    /// The larger transfer's bytes.
    public var bytes: Int
  }

  public static let firstTransfer = 64 << 10
  public static let largestTransfer = 16 << 20
  public static let targetSeconds = 0.5

  /// Runs the test on `session`; nil when the terminal did not answer. A DA1 alone is waited
  /// for at most `roundTripTimeout` (a terminal that does not answer it keeps the doctor that
  /// long, not longer), a transfer's at most `timeout`. `columns` is the screen's width (the
  /// spaces never wrap); the line the cursor is on is left blank. `passthrough`: inside tmux,
  /// the question goes to the terminal outside it (tmux would answer at once).
  public static func run(
    session: TerminalSession, columns: Int, passthrough: Bool,
    roundTripTimeout: Duration = .seconds(2), timeout: Duration = .seconds(5)
  ) -> Result? {
    // A capability probe's answer that came late would answer the first question here, and
    // each exchange would be timed by the answer to the one before.
    session.awaitLateProbeAnswers(timeout: roundTripTimeout)
    let probe = LinkPacer(passthrough: passthrough).probe
    let clock = ContinuousClock()
    func exchange(_ bytes: [UInt8]) -> Double? {
      let start = clock.now
      session.write(bytes + probe)
      let deadline = start + (bytes.isEmpty ? roundTripTimeout : timeout)
      while clock.now < deadline, !session.inputEnded {
        let answered = session.readEvents(timeout: deadline - clock.now).contains {
          if case .reply(.primaryDeviceAttributes) = $0 { return true }
          return false
        }
        if answered { return seconds(clock.now - start) }
      }
      return nil
    }
    guard let first = exchange([]), let second = exchange([]) else { return nil }
    let roundTrip = min(first, second)
    guard let small = exchange(filler(bytes: firstTransfer, columns: columns)) else { return nil }
    let smallRate = Double(firstTransfer) / max(0.001, small - roundTrip)
    let size = Int(
      (smallRate * targetSeconds).clamped(to: Double(firstTransfer)...Double(largestTransfer)))
    let bytes = filler(bytes: size, columns: columns)
    guard let large = exchange(bytes) else { return nil }
    let rate = Double(bytes.count) / max(0.001, large - roundTrip)
    return Result(roundTrip: roundTrip, bytesPerSecond: rate, bytes: bytes.count)
  }

  /// About `bytes` of carriage returns and spaces, a line's width less one at a time: the
  /// cursor's line is overwritten with blanks, never wrapped or scrolled.
  static func filler(bytes: Int, columns: Int) -> [UInt8] {
    let width = max(1, min(columns - 1, 1000))
    var line = [UInt8](repeating: UInt8(ascii: " "), count: width)
    line.insert(UInt8(ascii: "\r"), at: 0)
    var out: [UInt8] = []
    out.reserveCapacity(bytes + line.count)
    while out.count < bytes { out += line }
    out.append(UInt8(ascii: "\r"))
    return out
  }

  private static func seconds(_ duration: Duration) -> Double {
    let (seconds, attoseconds) = duration.components
    return Double(seconds) + Double(attoseconds) / 1e18
  }
}
