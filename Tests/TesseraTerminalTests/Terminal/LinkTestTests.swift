import Foundation
import Testing

@testable import TesseraTerminal

/// The doctor's link test (``LinkTest``) when the terminal gives it nothing to time: no answer
/// means no figure, within the round trip's wait, a late answer to the capability probe is
/// not its own, and the test transfer never wraps a line.
@Suite(.serialized, .timeLimit(.minutes(1))) struct LinkTestTests {
  @Test func aTerminalThatNeverAnswersGivesNoFigureWithinTheWait() throws {
    let pty = try PseudoTerminal()
    defer { pty.close() }
    let session = try TerminalSession(modes: [], input: pty.follower, output: pty.follower)
    defer { session.restore() }
    let clock = ContinuousClock()
    let start = clock.now
    let result = LinkTest.run(
      session: session, columns: 80, passthrough: false, roundTripTimeout: .milliseconds(300))
    let waited = clock.now - start
    #expect(result == nil)
    #expect(waited < .seconds(2), "waited \(waited) for a terminal that never answers")
    // Only the question went out: no test transfer without a round trip to subtract.
    let written = pty.drain()
    #expect(written.contains("\u{1B}[c") && !written.contains(" "), "\(written.debugDescription)")
  }

  /// The capability probe gave up on its DA1 and the answer came after: the link test takes it
  /// for the probe's, never for its own first question's, so each exchange is timed by its own
  /// answer. The terminal here answers each question 150 ms after reading it; on the old code
  /// the late answer, already waiting, answered the first question at once (round trip 0).
  @Test func aLateAnswerToTheCapabilityProbeIsNotTakenForTheLinkTests() throws {
    let pty = try PseudoTerminal()
    defer { pty.close() }
    let session = try TerminalSession(modes: [], input: pty.follower, output: pty.follower)
    defer { session.restore() }
    _ = session.detectCapabilities(budget: .milliseconds(20), environment: ["TERM": "xterm"])
    #expect(session.lateProbeAnswers == 1)
    _ = pty.drain()
    let answer = "\u{1B}[?62;4c"
    pty.type(answer)
    let delay = 0.15
    let finished = DispatchSemaphore(value: 0)
    let terminal = Thread { [pty] in
      defer { finished.signal() }
      // Answers every DA1 question (`ESC [ c`) it reads, `delay` after reading it.
      let question = Array("\u{1B}[c".utf8)
      var matched = 0
      var buffer = [UInt8](repeating: 0, count: 65536)
      while !Thread.current.isCancelled {
        var descriptor = pollfd(fd: pty.leader, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, 20) > 0 else { continue }
        let count = read(pty.leader, &buffer, buffer.count)
        guard count > 0 else { continue }
        var questions = 0
        for byte in buffer[..<count] {
          matched = byte == question[matched] ? matched + 1 : (byte == question[0] ? 1 : 0)
          if matched == question.count {
            questions += 1
            matched = 0
          }
        }
        for _ in 0..<questions {
          Thread.sleep(forTimeInterval: delay)
          pty.type(answer)
        }
      }
    }
    terminal.start()
    defer {
      terminal.cancel()
      finished.wait()
    }
    let result = try #require(
      LinkTest.run(session: session, columns: 80, passthrough: false, timeout: .seconds(10)))
    #expect(session.lateProbeAnswers == 0)
    #expect(
      result.roundTrip >= delay,
      "round trip \(result.roundTrip) s, under the terminal's \(delay) s: the answer before's")
    // Every answer was its own question's: none is left over after the test.
    let left = session.readEvents(timeout: .milliseconds(2 * Int(delay * 1000)))
    #expect(
      !left.contains { if case .reply(.primaryDeviceAttributes) = $0 { true } else { false } },
      "an answer was left unread: \(left)")
  }

  @Test func theTransferOverwritesOneLineAndNeverWraps() {
    for columns in [1, 2, 80, 5000] {
      let filler = LinkTest.filler(bytes: 10_000, columns: columns)
      #expect(filler.count >= 10_000)
      let lines = filler.split(separator: UInt8(ascii: "\r"))
      #expect(lines.allSatisfy { $0.count < max(2, columns) }, "\(columns) columns")
      #expect(filler.allSatisfy { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\r") })
    }
  }
}
