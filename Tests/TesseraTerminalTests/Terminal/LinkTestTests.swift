import Foundation
import Testing

@testable import TesseraTerminal

/// The doctor's link test (``LinkTest``) when the terminal gives it nothing to time: no answer
/// means no figure, within the round trip's wait, and the test transfer never wraps a line.
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
