import Testing

@testable import TesseraTerminal

/// The pacer over a modelled link (a rate and a delay each way, on a clock the test owns): it
/// keeps what is in flight near the link's round trip, so text written at any moment reaches
/// the terminal soon, and it measures the link from the terminal's answers.
@Suite(.timeLimit(.minutes(1))) struct LinkPacerTests {
  /// A link of `rate` bytes a second and `delay` seconds each way: bytes leave in order, one
  /// write after another; a DA1 answer comes back `delay` after the probe reached the terminal.
  struct Link {
    let rate: Double
    let delay: Double
    var free = 0.0

    /// When the last byte of `bytes` written at `now` reaches the terminal.
    mutating func send(_ bytes: Int, at now: Double) -> Double {
      free = max(free, now) + Double(bytes) / rate
      return free + delay
    }
  }

  /// Ten seconds of a gallery that always has another 40 KB tile to send, paced, with a key's
  /// answer (2 KB of text) written every 0.37 s: the key's latency and the measured rate.
  static func run(rate: Double, delay: Double) -> (worstKey: Double, measured: Double?, peak: Int) {
    var link = Link(rate: rate, delay: delay)
    var pacer = LinkPacer()
    var answers: [Double] = []
    var worstKey = 0.0
    var peak = 0
    var nextKey = 0.5
    var now = 0.0
    while now < 10 {
      while let first = answers.first, first <= now {
        answers.removeFirst()
        pacer.answered(at: first)
      }
      let budget = pacer.imageBudget(at: now)
      var bytes = 300  // the frame's text
      var images = 0
      if budget > 0 {
        // Tiles of 40 KB while the budget lasts (one may end past it).
        while images < budget { images += 40_000 }
      }
      if now >= nextKey {
        bytes += 2_000
        nextKey += 0.37
        let arrives = link.send(bytes + images, at: now)
        // Text goes out before the frame's image data: what was already in flight is ahead.
        worstKey = max(worstKey, arrives - Double(images) / rate - now)
      } else {
        _ = link.send(bytes + images, at: now)
      }
      if let probe = pacer.wrote(bytes: bytes + images, imageBytes: images, at: now) {
        answers.append(link.send(probe.count, at: now) + delay)
      }
      peak = max(peak, pacer.inFlight)
      now += 0.016
    }
    return (worstKey, pacer.bytesPerSecond, peak)
  }

  @Test(arguments: [(250_000.0, 0.04), (2_500_000.0, 0.04), (25_000_000.0, 0.02)])
  func keysStayQuickAndTheRateIsMeasured(rate: Double, delay: Double) throws {
    let (worstKey, measured, peak) = Self.run(rate: rate, delay: delay)
    // A key's text waits at most for what the window lets in flight: its round trip and the
    // queue time, plus one tile that may end past the budget.
    #expect(
      worstKey <= 2 * delay + LinkPacer.queueTime + 40_000 / rate + 0.1,
      "a key waited \(worstKey) s at \(rate) B/s")
    let rateSeen = try #require(measured, "no rate measured at \(rate) B/s")
    #expect(abs(rateSeen - rate) / rate <= 0.25, "measured \(rateSeen) B/s of \(rate)")
    #expect(peak <= Int(rate * (2 * delay + LinkPacer.queueTime)) + 2 * 40_000 + 64 << 10)
  }

  /// Unpaced, the same gallery fills the link: a key waits seconds behind the images.
  @Test func withoutPacingAKeyWaitsBehindTheImages() {
    var link = Link(rate: 250_000, delay: 0.04)
    var worst = 0.0
    var now = 0.0
    while now < 5 {
      let arrives = link.send(300 + 40_000 * 4, at: now)
      worst = max(worst, arrives - now)
      now += 0.016
    }
    #expect(worst > 3, "unpaced, the last frame waited only \(worst) s")
  }

  @Test func aTerminalThatNeverAnswersIsGivenUp() {
    var pacer = LinkPacer()
    #expect(pacer.wrote(bytes: 100_000, imageBytes: 100_000, at: 0) == LinkPacer.probe)
    #expect(pacer.imageBudget(at: 0.1) == 0, "100 kB in flight is past the first window")
    #expect(pacer.imageBudget(at: LinkPacer.giveUpAfter + 1) == .max)
    #expect(pacer.unanswered)
    #expect(pacer.wrote(bytes: 100_000, imageBytes: 100_000, at: 7) == nil)
  }

  @Test func anAnswerToNoProbeChangesNothing() {
    var pacer = LinkPacer()
    pacer.answered(at: 1)
    #expect(pacer.inFlight == 0 && pacer.roundTrip == nil && pacer.bytesPerSecond == nil)
  }
}
