import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Why the terminal could not be taken over.
public enum TerminalError: Error, Hashable, Sendable, CustomStringConvertible {
  case notATerminal(descriptor: Int32)
  case systemCall(String, errno: Int32)

  public var description: String {
    switch self {
    case .notATerminal(let descriptor): "file descriptor \(descriptor) is not a terminal"
    case .systemCall(let name, let errno): "\(name) failed (errno \(errno))"
    }
  }
}

/// The app's hold on the terminal: raw mode and the chosen modes from `init` until
/// ``restore()``, and restored on every other way out too: a thrown error (``run(modes:_:)``
/// or `deinit`), `exit`, SIGINT/SIGTERM/SIGHUP/SIGQUIT and crashes (SIGSEGV, SIGILL, SIGABRT,
/// …, stack overflows included) through ``SignalHandlers``. Ctrl-C in raw mode is a key
/// (`.control("c")`), not a signal.
///
/// Suspending works as in any full-screen program: SIGTSTP (or ``suspend()``, for the Ctrl-Z
/// key) restores the terminal and stops; SIGCONT (`fg`) takes the terminal back and the input
/// reports a `.resize`, on which the app redraws. When the input ends (EOF, a hang-up, EIO)
/// ``inputEnded`` turns true and ``events(escapeTimeout:)`` finishes: the app should quit.
public final class TerminalSession {
  public let input: Int32
  public let output: Int32
  public let modes: TerminalModes
  private var original = termios()
  private var active = false
  private var kittyImagesShown = false
  private var kittyThroughTmux = false
  let wakePipe: WakePipe
  private var pump: InputPump
  private let ended = AtomicFlag()
  /// Non-reply events read while probing, handed out by the next ``readEvents(timeout:)``.
  private var queued: [InputEvent] = []
  private var restoreHooks: [() -> Void] = []

  var endOfInputFlag: AtomicFlag { ended }

  func takeQueued() -> [InputEvent] {
    defer { queued.removeAll() }
    return queued
  }

  func addRestoreHook(_ hook: @escaping () -> Void) { restoreHooks.append(hook) }

  /// Whether the input has ended (EOF, hang-up or a read error): nothing more will arrive,
  /// and the app should quit. ``readEvents(timeout:escapeTimeout:)`` then returns at once.
  public var inputEnded: Bool { ended.isSet }

  public init(
    modes: TerminalModes = .gallery, input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO
  ) throws(TerminalError) {
    guard isatty(input) == 1 else { throw .notATerminal(descriptor: input) }
    guard isatty(output) == 1 else { throw .notATerminal(descriptor: output) }
    self.input = input
    self.output = output
    self.modes = modes
    wakePipe = try WakePipe()
    pump = InputPump(input: input, output: output, wake: wakePipe.read)
    guard tcgetattr(input, &original) == 0 else {
      throw .systemCall("tcgetattr", errno: errno)
    }
    var raw = original
    cfmakeraw(&raw)
    // Keep output post-processing so a crash report printed before restore stays readable.
    raw.c_oflag |= tcflag_t(OPOST)
    withUnsafeMutableBytes(of: &raw.c_cc) { cc in
      cc[Int(VMIN)] = 1
      cc[Int(VTIME)] = 0
    }
    SignalRestore.arm(
      input: input, output: output, original: original, raw: raw, leave: modes.leaveSequence(),
      enter: modes.enterSequence, wakePipe: wakePipe.write)
    guard tcsetattr(input, TCSANOW, &raw) == 0 else {
      SignalRestore.endSession()
      throw .systemCall("tcsetattr", errno: errno)
    }
    active = true
    write(modes.enterSequence)
  }

  deinit {
    // The wake pipe closes when its last holder (the input thread, perhaps) lets go.
    restore()
  }

  /// Runs `body` with a session and restores the terminal however `body` ends.
  public static func run<T>(
    modes: TerminalModes = .gallery, _ body: (TerminalSession) async throws -> T
  ) async throws -> T {
    let session = try TerminalSession(modes: modes)
    defer { session.restore() }
    return try await body(session)
  }

  /// Leaves the modes and raw mode; safe to call more than once.
  public func restore() {
    guard active else { return }
    active = false
    for hook in restoreHooks { hook() }
    restoreHooks.removeAll()
    let wasSuspended = SignalRestore.suspended.load(ordering: .sequentiallyConsistent)
    SignalRestore.endSession()
    if !wasSuspended {
      write(
        modes.leaveSequence(freeKittyImages: kittyImagesShown, throughTmux: kittyThroughTmux))
    }
    var saved = original
    tcsetattr(input, TCSANOW, &saved)
  }

  /// Hands the terminal back and stops the process, as Ctrl-Z does in a shell (raw mode
  /// delivers Ctrl-Z as the key `.control("z")`, so the app calls this for it). When the shell
  /// continues the process (`fg`), the session takes the terminal back by itself and the input
  /// reports a `.resize`; the app then redraws everything. Returns once continued.
  public func suspend() {
    guard active else { return }
    // Unblocked on this thread for the moment, so the handler runs inside `raise`.
    var stop = sigset_t()
    sigemptyset(&stop)
    sigaddset(&stop, SIGTSTP)
    var old = sigset_t()
    pthread_sigmask(SIG_UNBLOCK, &stop, &old)
    raise(SIGTSTP)
    pthread_sigmask(SIG_SETMASK, &old, nil)
  }

  /// Gives the terminal back while a program the person runs from the app has it (a
  /// key-handler: its output shows on the normal screen, in cooked mode), until
  /// ``takeTerminalBack()``. Keys typed meanwhile still reach the app's input.
  public func lendTerminal() {
    guard active else { return }
    SignalRestore.suspendNow()
  }

  /// Takes the terminal back after ``lendTerminal()``, as after `fg`: raw mode and the modes
  /// back, and the input reports a `.resize`, on which the app redraws everything.
  public func takeTerminalBack() {
    guard active else { return }
    SignalRestore.resumeNow()
  }

  /// Tells the session kitty images are on screen, so leaving frees them; `throughTmux`
  /// when they reached the terminal through tmux's passthrough (so must their deletion).
  public func noteKittyImagesShown(throughTmux: Bool = false) {
    guard !kittyImagesShown else { return }
    kittyImagesShown = true
    kittyThroughTmux = throughTmux
    SignalRestore.update(
      leave: modes.leaveSequence(freeKittyImages: true, throughTmux: throughTmux))
  }

  /// Leaves the kitty images drawn on the screen when the session ends, also on Ctrl-C: for a
  /// program that draws on the normal screen and means its images to stay, as the doctor's
  /// test images must until the person has seen them (freed on exit, they vanished about
  /// 50 ms after they were drawn). kitty frees them itself once they scroll away.
  public func keepImagesAfterExit() {
    kittyImagesShown = false
    SignalRestore.update(leave: modes.leaveSequence())
  }

  /// The window size from the kernel (cells and, where the terminal sets them, pixels),
  /// clamped to ``TerminalLimits``; 80×24 when the kernel does not know it.
  public func size() -> TerminalSize { Self.windowSize(of: output) }

  static func windowSize(of output: Int32) -> TerminalSize {
    var window = winsize()
    guard ioctl(output, UInt(TIOCGWINSZ), &window) == 0,
      let size = TerminalLimits.windowSize(
        columns: Int(window.ws_col), rows: Int(window.ws_row), pixelWidth: Int(window.ws_xpixel),
        pixelHeight: Int(window.ws_ypixel))
    else { return TerminalSize(columns: 80, rows: 24) }
    return size
  }

  /// Bytes written to the terminal so far through ``write(_:)``, the modes' sequences and
  /// the capability queries included.
  public private(set) var bytesWritten = 0

  /// Writes all of `bytes`, waiting out a full buffer. Dropped while the session is
  /// suspended: the terminal belongs to the shell then (the app redraws on resume).
  public func write(_ bytes: [UInt8]) {
    guard !SignalRestore.suspended.load(ordering: .sequentiallyConsistent) else { return }
    var total = 0
    defer { bytesWritten += total }
    bytes.withUnsafeBytes { buffer in
      guard let base = buffer.baseAddress else { return }
      var offset = 0
      while offset < buffer.count {
        let written = writeDescriptor(output, base + offset, buffer.count - offset)
        if written > 0 {
          offset += written
          total += written
        } else if written < 0, errno == EINTR || errno == EAGAIN {
          var descriptor = pollfd(fd: output, events: Int16(POLLOUT), revents: 0)
          _ = poll(&descriptor, 1, 100)
        } else {
          return
        }
      }
    }
  }

  /// Waits up to `timeout` for input and returns what arrived, decoded. A lone ESC is
  /// resolved as the Esc key when nothing follows within `escapeTimeout`. A SIGWINCH, or a
  /// SIGCONT that took the terminal back, yields `.resize` with the current size. Once the
  /// input has ended (see ``inputEnded``) it returns at once, with nothing.
  public func readEvents(
    timeout: Duration, escapeTimeout: Duration = .milliseconds(25)
  ) -> [InputEvent] {
    if !queued.isEmpty {
      defer { queued.removeAll() }
      return queued
    }
    var events: [InputEvent] = []
    var wait = timeout
    while !pump.ended {
      let step = pump.next(timeout: Self.milliseconds(wait))
      events += step.events
      if step.timedOut || !pump.parser.needsTimeout { break }
      wait = escapeTimeout
    }
    if pump.ended { ended.set() }
    return events
  }

  /// Sends the capability queries and waits for their answers, at most `budget`; decides the
  /// protocol (honouring `override`, the app's `--graphics`). Inside tmux, tmux is asked
  /// first (``TmuxState/query(environment:)``) whether the outer terminal can be reached. Keys
  /// typed meanwhile are kept.
  public func detectCapabilities(
    override: GraphicsProtocol? = nil, budget: Duration = .milliseconds(250),
    environment: [String: String] = ProcessInfo.processInfo.environment,
    tmux: TmuxState? = nil
  ) -> TerminalCapabilities {
    let insideTmux = environment["TMUX"].map { !$0.isEmpty } ?? false
    let tmux = tmux ?? (insideTmux ? TmuxState.query(environment: environment) : nil)
    let passthrough = tmux?.passthrough ?? false
    write(CapabilityProbe.query(insideTmux: insideTmux, passthrough: passthrough))
    let expected = CapabilityProbe.expectedDeviceAttributes(
      insideTmux: insideTmux, passthrough: passthrough)
    var replies: [TerminalReply] = []
    // Keys and focus changes that come meanwhile are kept for the caller, and only after the
    // probe: kept at once, the next read would hand them back instead of reading the answers
    // (tmux with focus-events on sends a focus-in before the outer terminal's answers).
    var typed: [InputEvent] = []
    defer { queued += typed }
    let deadline = ContinuousClock.now + budget
    while !CapabilityProbe.isComplete(replies, expecting: expected), !inputEnded {
      let left = deadline - ContinuousClock.now
      if left <= .zero { break }
      for event in readEvents(timeout: left) {
        if case .reply(let reply) = event {
          replies.append(reply)
        } else {
          typed.append(event)
        }
      }
    }
    CapabilityProbe.removeProbeFile()
    lateProbeAnswers = max(0, expected - replies.count { Self.isDeviceAttributes($0) })
    var capabilities = TerminalCapabilities.decide(
      environment: environment, replies: replies, override: override, windowSize: size(),
      tmux: tmux)
    capabilities.followsSession = true
    if GraphicsLayers.type(for: capabilities.graphics).keepsImagesAfterExit {
      noteKittyImagesShown(throughTmux: capabilities.passthrough)
    }
    return capabilities
  }

  /// The capability probe's DA1 questions still unanswered when it stopped waiting. Their
  /// answers may yet come (a loaded machine, a slow link), and each would be taken for the
  /// answer to the next DA1 asked: the doctor, beside other suites on two cores, once timed
  /// every exchange of its link test by the answer to the one before and reported 1.3× a
  /// 1-MB/s link. Not dropped as they come: inside a tmux with no outer terminal one never
  /// comes, and the first answer to a question of the caller's would go instead. A caller that
  /// times answers waits for them first (``awaitLateProbeAnswers(timeout:)``).
  public private(set) var lateProbeAnswers = 0

  /// Reads until the capability probe's late DA1 answers (``lateProbeAnswers``) came, at most
  /// `timeout`; returns whether they all did. After it, the next DA1 answer is the answer to
  /// the caller's own question. Other late answers are dropped with them; keys typed meanwhile
  /// are kept for the next read. Past the timeout the rest are given up.
  ///
  /// - Complexity: O(input read).
  @discardableResult
  public func awaitLateProbeAnswers(timeout: Duration) -> Bool {
    var typed: [InputEvent] = []
    defer { queued += typed }
    let deadline = ContinuousClock.now + timeout
    while lateProbeAnswers > 0, !inputEnded {
      let left = deadline - ContinuousClock.now
      if left <= .zero { break }
      for event in readEvents(timeout: left) {
        guard case .reply(let reply) = event else {
          typed.append(event)
          continue
        }
        if Self.isDeviceAttributes(reply) { lateProbeAnswers = max(0, lateProbeAnswers - 1) }
      }
    }
    let allCame = lateProbeAnswers == 0
    lateProbeAnswers = 0
    return allCame
  }

  private static func isDeviceAttributes(_ reply: TerminalReply) -> Bool {
    if case .primaryDeviceAttributes = reply { return true }
    return false
  }

  static func milliseconds(_ duration: Duration) -> Int32 {
    let (seconds, attoseconds) = duration.components
    let total = seconds * 1000 + attoseconds / 1_000_000_000_000_000
    return Int32(clamping: max(0, total))
  }
}

private func writeDescriptor(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
  write(fd, bytes, count)
}
