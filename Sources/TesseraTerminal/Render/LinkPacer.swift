import TesseraUtilities

/// Keeps what the link to the terminal holds small, so a key's answer never waits behind
/// megabytes of image data (issue 34): after a frame that carried image data the app asks the
/// terminal for its attributes (DA1, `CSI c`); the answer comes back only once the terminal
/// has read everything before it. Bytes written and not yet answered for are in flight, and
/// new image data is allowed only while they stay under ``window``: what the link carries in
/// its round trip plus ``queueTime``. Text is never held back: it is small, and with little in
/// flight it reaches the terminal within about that time.
///
/// A draw the terminal reads whole (a sixel band of photo-like cells is up to 82 kB, a third
/// of a second at 2 Mbit/s) cannot be split at the window's edge, and answers come a draw at a
/// time, so a window of draws either overruns by a draw or waits for the last one's answer
/// with the link idle. When the caller says how large its draws are and one is longer than
/// ``queueTime`` of the link, image data also waits until the link's own queue
/// (``queued(at:)``) is down to ``queueTime`` less the largest draw, at least
/// ``leastQueueTime``: the next draw is written just before the last one is through, and a
/// key waits behind about one draw, not a window and a draw.
///
/// The answers also measure the link (``bytesPerSecond``), as BBR measures a TCP path: each
/// answer gives a delivery rate, the bytes acknowledged since the previous answer over the time
/// between the two (or between the two probes' writes, if longer), and the estimate is the largest of the last ``sampleLifetime`` seconds'
/// rates. A rate measured while the gallery had little to send only ever underestimates the
/// link, so the maximum ignores it; the terminal's own account, never how fast `write`
/// returned (a pty and sshd take megabytes before the network sends any). While the estimate
/// still grows by a quarter a round the window is doubled (startup), afterwards it is probed
/// at 1.25× every ``probeEvery``th round, so a link that got faster is found. Times come from
/// the caller, so tests drive it with a clock of their own.
///
/// - Complexity: O(1) amortised per call, O(frames within ``sampleLifetime``) for a frame
///   with a draw; memory O(probes in flight + answers and draws within ``sampleLifetime``), at
///   most ``maximumProbes`` probes.
public struct LinkPacer: Sendable {
  /// What the link may hold beyond its round trip, in time: the wait a key's answer sees.
  public static let queueTime = 0.08
  /// The link's queue at which the next large draw may start (``queued(at:)``): a frame's
  /// interval of margin, so the link does not idle while the loop sleeps.
  public static let leastQueueTime = 0.02
  /// In flight before any answer measured the link.
  public static let firstWindow = 16 << 10
  /// The least window: a slow link still moves.
  public static let minimumWindow = 8 << 10
  /// Probes outstanding at most; past it, frames carry no new image data until one answers.
  public static let maximumProbes = 8
  /// A frame adds at most this share of the window, so a window goes out as several frames,
  /// each with its probe, and answers come back while the link still carries the rest. A
  /// window written whole went stop-and-wait: the next only after the answer to its end, the
  /// link busy (round trip + ``queueTime``) / (2 × round trip + ``queueTime``) of the time,
  /// two thirds at 40 ms each way (the kitty first screen measured 0.62 of the link).
  public static let piecesPerWindow = 4
  /// Below this round trip (a terminal on this machine) a window goes whole and samples are
  /// short: the answer is back before the next frame, so stop-and-wait costs nothing, and
  /// pieces and long samples would only slow the estimate's climb from ``firstWindow`` (a
  /// local gallery's first screen in half blocks waited seconds for it).
  public static let localRoundTrip = 0.01
  /// A probe unanswered this long is given up (a terminal that does not answer DA1 would
  /// otherwise stop every image): the pacer then lets images through unpaced.
  public static let giveUpAfter = 5.0
  /// How long a delivery-rate sample counts toward the estimate.
  public static let sampleLifetime = 4.0
  /// After startup, every this many rounds the window is 1.25× to find a faster link.
  public static let probeEvery = 8
  /// The shortest time a delivery-rate sample spans. Answers come in bursts (a terminal
  /// parses its input in batches, the loop reads answers between frames) while frames are
  /// written faster than a fast link carries them, so over a few milliseconds both intervals
  /// BBR compares are short: samples 2 ms apart read 4× the rate at 20 Mbit/s, 32 ms apart
  /// 1.6–1.9×. Over 100 ms a burst of 20 ms is a fifth of the sample. A sample spans three
  /// round trips when that is shorter, and 2 ms at least (``localRoundTrip``).
  static let shortestSample = 0.1

  /// The shortest sample for the round trip measured so far.
  private var shortestSampleNow: Double {
    max(0.002, min(Self.shortestSample, 3 * (roundTrip ?? 0)))
  }
  /// The rates a sample may claim: 1 kB/s to 10 GB/s (two answers a few microseconds apart
  /// would claim anything).
  static let plausibleRates = 1e3...1e10

  private struct Probe: Sendable {
    /// Total bytes written when the probe was sent (it follows them).
    var mark: Int
    var sentAt: Double
  }

  private var probes: [Probe] = []
  private var written = 0
  private var acknowledged = 0
  private var lastAnswer: (at: Double, mark: Int, sentAt: Double)?
  private var samples: [(at: Double, rate: Double)] = []
  /// The largest draw of each recent frame that had one.
  private var draws: [(at: Double, bytes: Int)] = []
  /// The link's queue as the writes and the measured rate make it, at a time.
  private var queue: (bytes: Double, at: Double) = (0, 0)
  /// When the last answer came.
  private var lastAcknowledgement: Double?
  private var rounds = 0
  private var startup = true
  private var bestInStartup = 0.0
  private var roundsWithoutGrowth = 0
  /// The shortest round trip seen: the link's delay with nothing queued.
  public private(set) var roundTrip: Double?
  /// Whether the terminal stopped answering (``giveUpAfter``): pacing is off.
  public private(set) var unanswered = false
  /// The probe as written: through tmux's passthrough when images go past tmux, so the
  /// terminal at the end of the link answers (tmux's own answer would come at once).
  public let probe: [UInt8]

  /// Whether the probe goes past tmux to the outer terminal.
  public let passthrough: Bool

  /// - Parameter passthrough: whether the probe goes past tmux to the outer terminal.
  public init(passthrough: Bool = false) {
    self.passthrough = passthrough
    if passthrough {
      var wrapped = ByteWriter()
      TmuxPassthrough.wrap(Self.attributesRequest, into: &wrapped)
      probe = wrapped.bytes
    } else {
      probe = Self.attributesRequest
    }
  }

  /// Bytes written and not yet answered for.
  public var inFlight: Int { written - acknowledged }

  /// Probes written and not yet answered (nor given up).
  public var probesOutstanding: Int { probes.count }

  /// The link's rate, from the terminal's answers; nil until two answers measured it.
  public var bytesPerSecond: Double? { samples.lazy.map(\.rate).max() }

  /// The largest draw written within ``sampleLifetime`` (``wrote(bytes:imageBytes:largestDraw:at:)``).
  public var largestDraw: Int { draws.lazy.map(\.bytes).max() ?? 0 }

  /// The gain on the measured rate: 2 while the estimate still grows, 1.25 every
  /// ``probeEvery``th round after, so a faster link shows in the answers.
  private var gain: Double { startup ? 2 : (rounds % Self.probeEvery == 0 ? 1.25 : 1) }

  /// The bytes still queued before the link at `now`: every write added, drained at the
  /// measured rate, empty while nothing was queued. The measured rate is at most the link's,
  /// so the estimate errs high, and an error that way heals itself the next time both are
  /// empty; one that errs low would stay. As BBR paces, the drain is 1.25× the rate in
  /// startup and in the rounds that probe for a faster link (a low estimate would otherwise
  /// pace the link at itself for good: answers only ever come as fast as the draws go), and
  /// 0.75× in the round after a probe, which takes back what the probe queued. What a
  /// faster drain leaves out is bounded by the last answer: the queue holds at least what
  /// was in flight then, less what the rate can have carried since those bytes left, a
  /// round trip before the answer.
  /// Nil before the link is measured or on a local one.
  public func queued(at now: Double) -> Int? {
    guard let trip = roundTrip, trip >= Self.localRoundTrip, let rate = bytesPerSecond,
      let answeredAt = lastAcknowledgement
    else { return nil }
    let carried = (rate * max(0, now - answeredAt + trip)).clamped(to: 0...Double(1 << 40))
    return max(Int(drained(to: now)), inFlight - Int(carried))
  }

  private var drainGain: Double {
    if startup { return 1.25 }
    switch rounds % Self.probeEvery {
    case 0: return 1.25
    case 1: return 0.75
    default: return 1
    }
  }

  private func drained(to now: Double) -> Double {
    guard let rate = bytesPerSecond else { return 0 }
    let drain = rate * drainGain * max(0, now - queue.at)
    return max(0, queue.bytes - drain.clamped(to: 0...Double(1 << 40)))
  }

  /// What may be in flight: the link's rate times its round trip plus ``queueTime``. The
  /// gain that finds a faster link applies to the round trip only, so the queue a key's
  /// answer waits behind stays ``queueTime`` long while the estimate grows. Where the queue
  /// paces large draws (``queued(at:)``) the window takes one draw more: the last draw is
  /// answered for only once it is through, a round trip after the next should have started.
  public var window: Int {
    guard let rate = bytesPerSecond else { return Self.firstWindow }
    let seconds = (roundTrip ?? 0) * gain + Self.queueTime
    let draw = pacesByQueue ? Double(largestDraw) : 0
    return max(
      Self.minimumWindow, Int((rate * seconds + draw).clamped(to: 0...Double(1 << 30))))
  }

  /// Whether draws are paced by the link's queue: while the caller's draws are longer than
  /// the queue a key may wait behind (``queueTime``). Shorter ones fit the window as any
  /// data does, and pacing them by an estimate that is still low (a fast link the encoder
  /// cannot fill yet) would keep it low: at 20 Mbit/s xterm's first screen took 8.4 s
  /// instead of 3.2, the estimate at 0.4 of the link.
  private var pacesByQueue: Bool {
    guard let rate = bytesPerSecond, !draws.isEmpty else { return false }
    return Double(largestDraw) > rate * Self.queueTime
  }

  /// The image bytes the next frame may add (``TerminalRenderer/render(_:images:occluders:policy:imageBudget:)``).
  public mutating func imageBudget(at now: Double) -> Int {
    if probeExpired(at: now) {
      unanswered = true
      probes.removeAll()
      acknowledged = written
    }
    if unanswered { return .max }
    guard probes.count < Self.maximumProbes else { return 0 }
    let window = window
    guard let trip = roundTrip, trip >= Self.localRoundTrip else {
      return max(0, window - inFlight)
    }
    var share = min(window - inFlight, window / Self.piecesPerWindow)
    if pacesByQueue, let queue = queued(at: now), let rate = bytesPerSecond {
      // The frame's data, many small draws or one that may end past it, leaves the queue at
      // most a draw past this.
      let startAt = max(
        rate * Self.leastQueueTime, rate * Self.queueTime - Double(largestDraw))
      share = min(share, Int(startAt.clamped(to: 0...Double(1 << 30))) - queue)
    }
    return max(0, share)
  }

  /// The bytes the link's queue takes now and stays within ``queueTime`` (``queued(at:)``):
  /// how much more of a frame being written in slices goes (``PacedFrame``). Nil where the
  /// link is not paced by its queue (not measured yet, on this machine, the terminal stopped
  /// answering, or no recent draw was longer than ``queueTime`` of the link): the frame then
  /// goes whole. Short draws need no slices (a key waits behind at most one anyway), and
  /// slicing them by an estimate still low could keep it low, as pacing them by the queue did.
  public func room(at now: Double) -> Int? {
    guard !unanswered, pacesByQueue, let queue = queued(at: now), let rate = bytesPerSecond
    else { return nil }
    return max(0, Int((rate * Self.queueTime).clamped(to: 0...Double(1 << 30))) - queue)
  }

  /// Whether the window has room now: the caller draws again after a frame's interval
  /// instead of waiting for an answer. Changes nothing.
  public func hasRoom(at now: Double) -> Bool {
    if unanswered || probeExpired(at: now) { return true }
    return probes.count < Self.maximumProbes && inFlight < window
  }

  /// Whether the oldest probe went unanswered ``giveUpAfter``.
  private func probeExpired(at now: Double) -> Bool {
    probes.first.map { now - $0.sentAt > Self.giveUpAfter } ?? false
  }

  /// A frame of `bytes` was written at `now`, `imageBytes` of them image data. Returns the
  /// probe to write after it (DA1) when one should go: after image data, and after text when
  /// no probe is out (text counts in flight too, and only an answer takes it off: without
  /// one, a screen of changing text would hold the images back for good); never once the
  /// terminal stopped answering or ``maximumProbes`` are out.
  /// `largestDraw` is the frame's largest image written as one piece the terminal reads
  /// whole (``TerminalRenderer/largestImageDrawInLastFrame``), zero where there was none.
  /// A frame written in slices (``PacedFrame``) is told slice by slice, its largest draw with
  /// the first, and `endsFrame` false until the last: no probe goes into the middle of it.
  public mutating func wrote(
    bytes: Int, imageBytes: Int, largestDraw: Int = 0, endsFrame: Bool = true, at now: Double
  ) -> [UInt8]? {
    written += max(0, bytes)
    queue = (drained(to: now) + Double(max(0, bytes)), max(now, queue.at))
    draws.removeAll { now - $0.at > Self.sampleLifetime }
    if largestDraw > 0 { draws.append((now, min(largestDraw, 1 << 30))) }
    guard endsFrame, bytes > 0, imageBytes > 0 || probes.isEmpty, !unanswered,
      probes.count < Self.maximumProbes
    else { return nil }
    written += probe.count
    queue.bytes += Double(probe.count)
    probes.append(Probe(mark: written, sentAt: now))
    return probe
  }

  /// `bytes` (the end of a frame) followed by `probe`, as ``wrote(bytes:imageBytes:largestDraw:endsFrame:at:)``
  /// returned it. Past tmux, when the frame ends with a passthrough sequence (an image), the
  /// question goes inside it: a probe of its own cost a sequence and tmux's ~110 bytes of
  /// resets after it, about 15 kB of a first screen at 2 Mbit/s. It is then 9 bytes shorter
  /// than counted in flight, which the next answer takes off with the rest.
  ///
  /// - Complexity: O(the frame's final passthrough sequence).
  public func appending(_ probe: [UInt8], to bytes: [UInt8]) -> [UInt8] {
    if passthrough,
      let inside = TmuxPassthrough.inserting(Self.attributesRequest, intoSequenceEnding: bytes)
    {
      return inside
    }
    return bytes + probe
  }

  /// A DA1 answer arrived at `now`: the oldest probe is answered. An answer to no probe of
  /// ours (the capability probe's) changes nothing.
  public mutating func answered(at now: Double) {
    guard !probes.isEmpty else { return }
    let probe = probes.removeFirst()
    let trip = max(0, now - probe.sentAt)
    roundTrip = min(roundTrip ?? trip, trip)
    // As BBR does, the interval is the longer of the two between the probes' sending and
    // between their answers: bytes written slowly and answered in a burst (the text that
    // trailed an image probe, answered just after it) tell only how slowly they were written.
    let interval = lastAnswer.map { max(now - $0.at, probe.sentAt - $0.sentAt) } ?? 0
    acknowledged = probe.mark
    lastAcknowledgement = now
    // A sample of a few kilobytes is mostly the loop's 16-ms steps, not the link: at least
    // ``minimumWindow`` bytes over ``shortestSample`` make one. Answers for less are summed
    // into the next sample (a window written in pieces smaller than that was once never
    // measured at all).
    if let last = lastAnswer,
      interval < shortestSampleNow || probe.mark - last.mark < Self.minimumWindow
    {
      return
    }
    if let last = lastAnswer {
      let rate = (Double(probe.mark - last.mark) / interval).clamped(to: Self.plausibleRates)
      samples.append((now, rate))
      samples.removeAll { now - $0.at > Self.sampleLifetime }
      rounds += 1
      if startup, let estimate = bytesPerSecond {
        if estimate > bestInStartup * 1.25 {
          bestInStartup = estimate
          roundsWithoutGrowth = 0
        } else {
          roundsWithoutGrowth += 1
          startup = roundsWithoutGrowth < 3
        }
      }
    }
    lastAnswer = (now, probe.mark, probe.sentAt)
  }

  /// Primary device attributes: every terminal answers it, after everything written before.
  static let attributesRequest: [UInt8] = Array("\u{1B}[c".utf8)
}
