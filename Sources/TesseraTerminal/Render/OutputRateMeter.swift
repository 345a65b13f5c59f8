/// How well the link to the terminal keeps up with what the app writes, measured from the
/// app's own writes: ``TerminalSession/write(_:)`` returns only when the kernel took every
/// byte, so the time spent inside it is time the link (a pty, sshd, the network, the
/// terminal's parser) made the app wait. Over SSH at 10 Mbit/s a 1 MB frame blocks for most
/// of a second; on a local terminal a write returns in microseconds.
///
/// The meter keeps the writes of the last ``window``; times come from the caller (a clock in
/// the app, durations of a test's choosing), so it is deterministic.
///
/// - Complexity: O(1) amortised per record; memory O(writes in the window).
public struct OutputRateMeter: Sendable {
  /// One write: when it started, how many bytes, how long it blocked.
  struct Write: Sendable {
    var start: ContinuousClock.Instant
    var bytes: Int
    var blocked: Duration
  }

  /// How far back writes count.
  public let window: Duration
  /// The share of wall time spent blocked in writes above which the link is behind.
  public let behindShare: Double
  private var writes: [Write] = []
  private var first = 0

  /// - Parameters:
  ///   - window: how far back writes count (clamped to 0.1…60 s).
  ///   - behindShare: the share of wall time blocked in writes that means the link cannot
  ///     keep up (clamped to 0.01…1).
  public init(window: Duration = .seconds(2), behindShare: Double = 0.25) {
    self.window = min(max(window, .milliseconds(100)), .seconds(60))
    self.behindShare = behindShare.isFinite ? min(1, max(0.01, behindShare)) : 0.25
  }

  /// Records a write of `bytes` that started at `start` and blocked for `blocked`.
  public mutating func record(bytes: Int, start: ContinuousClock.Instant, blocked: Duration) {
    writes.append(Write(start: start, bytes: max(0, bytes), blocked: max(.zero, blocked)))
    let horizon = start - window
    while first < writes.count, writes[first].start < horizon { first += 1 }
    // Compact once the dropped prefix is half the array: amortised O(1).
    if first > 64, first * 2 > writes.count {
      writes.removeFirst(first)
      first = 0
    }
  }

  private var recent: ArraySlice<Write> { writes[first...] }

  /// Bytes written in the window, per second of the window.
  public var offeredBytesPerSecond: Double {
    Double(recent.reduce(0) { $0 + $1.bytes }) / Self.seconds(window)
  }

  /// The rate the link sustained while it made the app wait (bytes written in blocking
  /// writes ÷ time blocked), or nil when writes never waited long enough to tell (the link
  /// took everything as fast as it was offered).
  public var measuredBytesPerSecond: Double? {
    // Only writes that waited say anything about the link; one that returned at once only
    // says the link was faster than that write.
    let waiting = recent.filter { $0.blocked > .milliseconds(1) }
    let blocked = waiting.reduce(Duration.zero) { $0 + $1.blocked }
    guard blocked >= .milliseconds(5) else { return nil }
    return Double(waiting.reduce(0) { $0 + $1.bytes }) / Self.seconds(blocked)
  }

  /// Whether the link cannot keep up: the app spent more than ``behindShare`` of the window
  /// waiting in writes.
  public var isBehind: Bool {
    let blocked = recent.reduce(Duration.zero) { $0 + $1.blocked }
    return Self.seconds(blocked) > behindShare * Self.seconds(window)
  }

  static func seconds(_ duration: Duration) -> Double {
    let (seconds, attoseconds) = duration.components
    return Double(seconds) + Double(attoseconds) / 1e18
  }
}

extension ImageDrawPolicy {
  /// Whether `environment` says the terminal is at the other end of an SSH connection
  /// (`SSH_CONNECTION` or `SSH_TTY` set): every image byte then crosses the network.
  public static func isRemote(environment: [String: String]) -> Bool {
    !(environment["SSH_CONNECTION"] ?? "").isEmpty || !(environment["SSH_TTY"] ?? "").isEmpty
  }

  /// The policy for one frame of a scrolling screen.
  ///
  /// - At rest: everything at full detail (`.all`), which also replaces any preview; with
  ///   `previewsFirst` (the run loop's choice: over SSH to kitty itself), `.previewsFirst`:
  ///   a preview on every tile before any tile's full detail.
  /// - Moving over a link that cannot keep up (`constrainedLink`: SSH, or an
  ///   ``OutputRateMeter`` that is behind) with kitty: images not on the terminal yet are sent
  ///   as previews (`.preview`, a few percent of the bytes) rather than not at all.
  /// - Flinging fast otherwise: only what costs nothing (`.cachedOnly`), as yazi does, so
  ///   scrolling never waits on image bytes.
  public static func forFrame(
    moving: Bool, fast: Bool, constrainedLink: Bool, graphics: GraphicsProtocol,
    previewsFirst: Bool = false
  ) -> ImageDrawPolicy {
    guard moving || fast else { return previewsFirst ? .previewsFirst : .all }
    if constrainedLink && GraphicsLayers.type(for: graphics).sendsPreviews { return .preview }
    return fast ? .cachedOnly : .all
  }
}
