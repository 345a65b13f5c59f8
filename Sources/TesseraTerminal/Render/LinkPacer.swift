/// Keeps what the link to the terminal holds small, so a key's answer never waits behind
/// megabytes of image data (issue 34): after a frame that carried image data the app asks the
/// terminal for its attributes (DA1, `CSI c`); the answer comes back only once the terminal
/// has read everything before it. Bytes written and not yet answered for are in flight, and
/// new image data is allowed only while they stay under ``window`` — what the link carries in
/// its round trip plus ``queueTime``. Text is never held back: it is small, and with little in
/// flight it reaches the terminal within about that time.
///
/// The answers also measure the link (``bytesPerSecond``): bytes acknowledged between two
/// answers over the time between them, while the link was busy — the terminal's own account,
/// not how fast `write` returned (a pty and sshd take megabytes before the network sends
/// any). Times come from the caller, so tests drive it with a clock of their own.
///
/// - Complexity: O(1) amortised per call; memory O(probes in flight), at most
///   ``maximumProbes``.
public struct LinkPacer: Sendable {
  /// What the link may hold beyond its round trip, in time: the wait a key's answer sees.
  public static let queueTime = 0.1
  /// In flight before any answer measured the link: 64 KiB.
  public static let firstWindow = 64 << 10
  /// The least window: a tile's worth, so a slow link still moves.
  public static let minimumWindow = 16 << 10
  /// Probes outstanding at most; past it, frames carry no new image data until one answers.
  public static let maximumProbes = 8
  /// A probe unanswered this long is given up (a terminal that does not answer DA1 would
  /// otherwise stop every image): the pacer then lets images through unpaced.
  public static let giveUpAfter = 5.0

  private struct Probe: Sendable {
    /// Total bytes written when the probe was sent (it follows them).
    var mark: Int
    var sentAt: Double
  }

  private var probes: [Probe] = []
  private var written = 0
  private var acknowledged = 0
  private var lastAnswer: (at: Double, mark: Int)?
  /// The shortest round trip seen: the link's delay with nothing queued.
  public private(set) var roundTrip: Double?
  /// The link's rate, from the terminal's answers; nil until one busy interval was measured.
  public private(set) var bytesPerSecond: Double?
  /// Whether the terminal stopped answering (``giveUpAfter``): pacing is off.
  public private(set) var unanswered = false

  public init() {}

  /// Bytes written and not yet answered for.
  public var inFlight: Int { written - acknowledged }

  /// What may be in flight: the link's rate times its round trip plus ``queueTime``.
  public var window: Int {
    guard let rate = bytesPerSecond else { return Self.firstWindow }
    let seconds = (roundTrip ?? 0) + Self.queueTime
    return max(Self.minimumWindow, Int((rate * seconds).clamped(to: 0...Double(1 << 30))))
  }

  /// The image bytes the next frame may add (``TerminalRenderer/render(_:images:occluders:policy:imageBudget:)``).
  public mutating func imageBudget(at now: Double) -> Int {
    if let oldest = probes.first, now - oldest.sentAt > Self.giveUpAfter {
      unanswered = true
      probes.removeAll()
      acknowledged = written
    }
    if unanswered { return .max }
    guard probes.count < Self.maximumProbes else { return 0 }
    return max(0, window - inFlight)
  }

  /// A frame of `bytes` was written at `now`, `imageBytes` of them image data. Returns the
  /// probe to write after it (DA1) when one should go: after image data, unless the terminal
  /// stopped answering.
  public mutating func wrote(bytes: Int, imageBytes: Int, at now: Double) -> [UInt8]? {
    written += max(0, bytes)
    guard imageBytes > 0, !unanswered, probes.count < Self.maximumProbes else { return nil }
    written += Self.probe.count
    probes.append(Probe(mark: written, sentAt: now))
    return Self.probe
  }

  /// A DA1 answer arrived at `now`: the oldest probe is answered. An answer to no probe of
  /// ours (the capability probe's) changes nothing.
  public mutating func answered(at now: Double) {
    guard !probes.isEmpty else { return }
    let probe = probes.removeFirst()
    let trip = max(0, now - probe.sentAt)
    roundTrip = min(roundTrip ?? trip, trip)
    // The link was busy from the last answer to this one when this probe was sent before the
    // last answer came: the bytes between the two marks crossed it in that time.
    if let last = lastAnswer, probe.sentAt <= last.at, now > last.at {
      let sample = Double(probe.mark - last.mark) / (now - last.at)
      bytesPerSecond = bytesPerSecond.map { 0.5 * $0 + 0.5 * sample } ?? sample
    } else if probe.mark - acknowledged >= Self.minimumWindow, let base = roundTrip,
      trip > base
    {
      // A burst after a rest: its bytes took the trip less the bare round trip.
      let sample = Double(probe.mark - acknowledged) / (trip - base)
      bytesPerSecond = bytesPerSecond.map { 0.5 * $0 + 0.5 * sample } ?? sample
    }
    acknowledged = probe.mark
    lastAnswer = (now, probe.mark)
  }

  /// Primary device attributes: every terminal answers it, after everything written before.
  public static let probe: [UInt8] = Array("\u{1B}[c".utf8)
}
