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

  /// Ten seconds of a gallery that always has more image data to send, in pieces of `unit`
  /// bytes (at most 8 a frame),
  /// paced, with a key's answer (2 KB of text) written every 0.37 s in a frame of its own, as
  /// the run loop writes it: the key's latency, the measured rate, the most in flight and the
  /// share of the link the images used. With `saysDraws` each piece is one draw the pacer is
  /// told of (a sixel band), as the gallery tells it.
  static func run(
    rate: Double, delay: Double, unit: Int, saysDraws: Bool = false, seconds: Double = 10,
    keysFrom: Double = 0
  ) -> (worstKey: Double, measured: Double?, peak: Int, utilisation: Double) {
    var link = Link(rate: rate, delay: delay)
    var pacer = LinkPacer()
    var answers: [Double] = []
    var worstKey = 0.0
    var peak = 0
    var imageBytes = 0
    var nextKey = 0.5
    var now = 0.0
    while now < seconds {
      while let first = answers.first, first <= now {
        answers.removeFirst()
        pacer.answered(at: first)
      }
      var bytes = 300  // the frame's text
      var images = 0
      if now >= nextKey {
        bytes += 2_000
        nextKey += 0.37
        let arrives = link.send(bytes, at: now)
        if now >= keysFrom { worstKey = max(worstKey, arrives - now) }
      } else {
        let budget = pacer.imageBudget(at: now)
        // Tiles while the budget lasts (one may end past it).
        while images < budget, images < 8 * unit { images += unit }
        _ = link.send(bytes + images, at: now)
      }
      imageBytes += images
      let draw = saysDraws && images > 0 ? unit : 0
      if let probe = pacer.wrote(
        bytes: bytes + images, imageBytes: images, largestDraw: draw, at: now)
      {
        answers.append(link.send(probe.count, at: now) + delay)
      }
      if now >= keysFrom { peak = max(peak, pacer.inFlight) }
      now += 0.016
    }
    return (worstKey, pacer.bytesPerSecond, peak, Double(imageBytes) / (rate * seconds))
  }

  /// Sixel bands of 36 kB at 2 Mbit/s + 40 ms (xterm's first screen in `tessera bench link`),
  /// after the pacer's startup: told of the draws, it writes the next band just before the
  /// last is through the link, so a key waits behind about one band, not a queue and a band
  /// beyond it, and the link stays as busy. Untold, the same bands overrun the window by one.
  @Test func aLargeDrawWaitsForTheLinksQueue() {
    let band = 36_000
    let told = Self.run(
      rate: 250_000, delay: 0.04, unit: band, saysDraws: true, seconds: 30, keysFrom: 3)
    let untold = Self.run(rate: 250_000, delay: 0.04, unit: band, seconds: 30, keysFrom: 3)
    #expect(told.worstKey <= 0.3, "told of its bands, a key waited \(told.worstKey) s")
    #expect(
      told.worstKey < untold.worstKey - 0.05,
      "told \(told.worstKey) s, untold \(untold.worstKey) s")
    #expect(
      told.utilisation >= 0.95 * untold.utilisation,
      "the link carried \(told.utilisation) told, \(untold.utilisation) untold")
  }

  /// The same gallery with bands of 82 kB (the largest photo-like band the bench logged),
  /// each frame one band of seven sixel rows, written as ``PacedFrame`` writes it: a slice a
  /// frame as the link's queue has room (``LinkPacer/room(at:)``), and a key ends the band at
  /// its next row. A key waits behind the queue and a row, not a band.
  static func runSliced(
    rate: Double, delay: Double, band: Int, sliced: Bool, seconds: Double = 30,
    keysFrom: Double = 3
  ) -> (worstKey: Double, utilisation: Double) {
    var link = Link(rate: rate, delay: delay)
    var pacer = LinkPacer()
    var answers: [Double] = []
    var worstKey = 0.0
    var imageBytes = 0
    var nextKey = 0.5
    var now = 0.0
    var left = 0  // of the band being written
    let row = band / 7
    func write(_ bytes: Int, images: Int, draw: Int, ends: Bool) {
      _ = link.send(bytes, at: now)
      imageBytes += images
      if let probe = pacer.wrote(
        bytes: bytes, imageBytes: max(images, ends ? 1 : 0), largestDraw: draw, endsFrame: ends,
        at: now)
      {
        answers.append(link.send(probe.count, at: now) + delay)
      }
    }
    while now < seconds {
      while let first = answers.first, first <= now {
        answers.removeFirst()
        pacer.answered(at: first)
      }
      if now >= nextKey {
        nextKey += 0.37
        if left > 0 {
          // To the end of the row being written, and ST.
          let rest = min(left, (row - (band - left) % row) % row)
          write(rest + 2, images: rest, draw: 0, ends: true)
          left = 0
        }
        let arrives = link.send(2_300, at: now)
        if now >= keysFrom { worstKey = max(worstKey, arrives - now) }
        _ = pacer.wrote(bytes: 2_300, imageBytes: 0, at: now).map {
          answers.append(link.send($0.count, at: now) + delay)
        }
      } else if left > 0 {
        let slice = min(left, pacer.room(at: now) ?? left)
        left -= slice
        if slice > 0 { write(slice, images: slice, draw: 0, ends: left == 0) }
      } else if pacer.imageBudget(at: now) > 0 {
        let slice = sliced ? min(band, pacer.room(at: now) ?? band) : band
        left = band - slice
        write(300 + slice, images: slice, draw: band, ends: left == 0)
      }
      now += 0.016
    }
    return (worstKey, Double(imageBytes) / (rate * seconds))
  }

  @Test func aBandWrittenAsTheLinkTakesItYieldsToAKey() {
    let sliced = Self.runSliced(rate: 250_000, delay: 0.04, band: 82_000, sliced: true)
    let whole = Self.runSliced(rate: 250_000, delay: 0.04, band: 82_000, sliced: false)
    #expect(sliced.worstKey <= 0.25, "sliced, a key waited \(sliced.worstKey) s")
    #expect(whole.worstKey > 0.3, "whole, a key waited only \(whole.worstKey) s")
    #expect(
      sliced.utilisation >= 0.95 * whole.utilisation,
      "the link carried \(sliced.utilisation) sliced, \(whole.utilisation) whole")
  }

  /// Only draws longer than ``LinkPacer/queueTime`` of the link make frames go in slices;
  /// frames of short ones (a fast link) go whole, as before the link was measured.
  @Test func onlyFramesOfLongDrawsGoInSlices() throws {
    var pacer = LinkPacer()
    #expect(pacer.room(at: 0) == nil, "unmeasured")
    _ = pacer.wrote(bytes: 30_000, imageBytes: 30_000, largestDraw: 1_000, at: 0)
    pacer.answered(at: 0.2)
    _ = pacer.wrote(bytes: 50_000, imageBytes: 50_000, largestDraw: 1_000, at: 0.2)
    pacer.answered(at: 0.45)
    let rate = try #require(pacer.bytesPerSecond)
    #expect(abs(rate - 200_000) < 100, "measured \(rate) B/s")
    #expect(pacer.room(at: 0.5) == nil, "1-kB draws are not paced by the queue")
    _ = pacer.wrote(bytes: 40_000, imageBytes: 40_000, largestDraw: 40_000, at: 0.5)
    let room = try #require(pacer.room(at: 0.5), "a 40-kB draw is 0.2 s of the link")
    #expect(room == 0, "40 kB just queued, more than 80 ms of the link: room \(room)")
    let later = try #require(pacer.room(at: 0.6))
    #expect(later > 0 && later <= Int(rate * LinkPacer.queueTime), "room \(later)")
  }

  /// A draw longer than the whole window still goes once nothing is in flight: a slow link's
  /// first estimate never stops the images.
  @Test func aDrawLongerThanTheWindowStillGoes() {
    var pacer = LinkPacer()
    _ = pacer.wrote(bytes: 1_000, imageBytes: 1_000, largestDraw: 200_000, at: 0)
    pacer.answered(at: 0.1)
    #expect(pacer.inFlight == 0)
    #expect(pacer.imageBudget(at: 0.1) > 0)
    #expect(pacer.hasRoom(at: 0.1))
  }

  @Test(
    arguments: [(250_000.0, 0.04), (2_500_000.0, 0.04), (25_000_000.0, 0.02)],
    [4_096, 10_000, 40_000])
  func keysStayQuickAndTheRateIsMeasured(link: (rate: Double, delay: Double), unit: Int) throws {
    let (rate, delay) = link
    let (worstKey, measured, peak, utilisation) = Self.run(rate: rate, delay: delay, unit: unit)
    // A key's text waits at most for what the window lets in flight: the queue time and, while
    // the estimate grows, one more round trip, plus one piece that may end past the budget.
    let roundTrip = 2 * delay
    let bound = delay + 2 * roundTrip + LinkPacer.queueTime + Double(unit) / rate + 0.05
    #expect(worstKey <= bound, "a key waited \(worstKey) s at \(rate) B/s, \(unit)-byte pieces")
    // The goal at 2 Mbit/s (250 kB/s) + 40 ms, met when images go in 10 kB pieces.
    if rate == 250_000 && unit <= 10_000 {
      #expect(worstKey <= 0.3, "a key waited \(worstKey) s at 2 Mbit/s")
    }
    let rateSeen = try #require(measured, "no rate measured at \(rate) B/s")
    // What the simulated gallery offers caps what can be seen: 8 pieces a 16-ms frame.
    let offered = min(rate, 8 * Double(unit) / 0.016)
    #expect(abs(rateSeen - offered) / offered <= 0.25, "measured \(rateSeen) B/s of \(offered)")
    #expect(peak <= Int(rate * (2 * roundTrip + LinkPacer.queueTime)) + 8 * unit)
    // Pacing must not starve the images: most of the link still carries them.
    #expect(utilisation >= 0.6 * offered / rate, "images used \(utilisation) of the link")
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
    #expect(pacer.wrote(bytes: 100_000, imageBytes: 100_000, at: 0) == pacer.probe)
    #expect(pacer.imageBudget(at: 0.1) == 0, "100 kB in flight is past the first window")
    #expect(pacer.imageBudget(at: LinkPacer.giveUpAfter + 1) == .max)
    #expect(pacer.unanswered)
    #expect(pacer.wrote(bytes: 100_000, imageBytes: 100_000, at: 7) == nil)
  }

  @Test func insideTmuxTheProbeGoesToTheOuterTerminal() {
    var pacer = LinkPacer(passthrough: true)
    let probe = pacer.wrote(bytes: 10, imageBytes: 10, at: 0)
    #expect(probe == Array("\u{1B}Ptmux;\u{1B}\u{1B}[c\u{1B}\\".utf8))
    #expect(pacer.inFlight == 10 + (probe?.count ?? 0))
  }

  /// Text counts in flight; a text-only frame with no probe out sends one, so text written
  /// while images wait is answered for and the images go on (xterm's status bar, redrawn
  /// each frame, once held every image back).
  @Test func textAloneIsProbedSoImagesNeverStall() {
    var pacer = LinkPacer()
    #expect(pacer.wrote(bytes: 20_000, imageBytes: 20_000, at: 0) != nil)
    pacer.answered(at: 0.05)
    var now = 0.1
    for _ in 0..<100 {
      let probe = pacer.wrote(bytes: 2_000, imageBytes: 0, at: now)
      now += 0.05
      if probe != nil { pacer.answered(at: now) }
    }
    #expect(pacer.inFlight <= 2_000 + pacer.probe.count, "\(pacer.inFlight) bytes in flight")
    #expect(pacer.imageBudget(at: now) > 0)
    // With a probe out, text alone sends no other.
    #expect(pacer.wrote(bytes: 100, imageBytes: 100, at: now) != nil)
    #expect(pacer.wrote(bytes: 100, imageBytes: 0, at: now) == nil)
  }

  @Test func anAnswerToNoProbeChangesNothing() {
    var pacer = LinkPacer()
    pacer.answered(at: 1)
    #expect(pacer.inFlight == 0 && pacer.roundTrip == nil && pacer.bytesPerSecond == nil)
  }
}
