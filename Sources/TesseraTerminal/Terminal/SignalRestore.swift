import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The terminal's state where ordinary code cannot run: signal handlers and `atexit`.
///
/// Everything a handler needs (the restore and re-enter bytes, both termios, the previous
/// signal actions) is allocated before any handler is installed, and the flags are atomics,
/// so a handler only calls async-signal-safe functions: `write`, `tcsetattr`, `tcgetpgrp`,
/// `getpgrp`, `sigaction`, `sigprocmask`, `raise`. The handlers themselves are in
/// ``SignalHandlers``.
///
/// Three flags describe the hold on the terminal:
/// - `sessionActive`: a ``TerminalSession`` holds it (from `init` to `restore()`);
/// - `armed`: the terminal is in the session's modes, so a restore has something to undo;
/// - `suspended`: a SIGTSTP handed it back, and a SIGCONT in the foreground takes it again.
enum SignalRestore {
  private static let capacity = 1024

  static let armed = Atomic<Bool>(false)
  static let sessionActive = Atomic<Bool>(false)
  static let suspended = Atomic<Bool>(false)
  /// How many times a SIGCONT took the terminal back (see ``TerminalGeneration``).
  static let resumeCount = Atomic<Int>(0)
  /// Whether SIGTSTP really stops the process after restoring. Tests turn it off, so they
  /// can drive the real handler without stopping the test runner.
  static let stopsProcess = Atomic<Bool>(true)
  /// The write end of the session's wake pipe (-1: none); handlers write one byte to it.
  static let wakePipeWrite = Atomic<Int32>(-1)

  /// The bytes a handler writes into the wake pipe: what happened.
  enum Wake {
    static let resized: UInt8 = 1
    static let resumed: UInt8 = 2
    static let stopping: UInt8 = 3
  }

  nonisolated(unsafe) private static var input: Int32 = -1
  nonisolated(unsafe) private static var output: Int32 = -1
  nonisolated(unsafe) private static let leaveBytes = UnsafeMutablePointer<UInt8>.allocate(
    capacity: capacity)
  nonisolated(unsafe) private static var leaveLength = 0
  nonisolated(unsafe) private static let enterBytes = UnsafeMutablePointer<UInt8>.allocate(
    capacity: capacity)
  nonisolated(unsafe) private static var enterLength = 0
  nonisolated(unsafe) private static let savedTermios = UnsafeMutablePointer<termios>.allocate(
    capacity: 1)
  nonisolated(unsafe) private static let rawTermios = UnsafeMutablePointer<termios>.allocate(
    capacity: 1)

  /// Touches every static a handler reads, so that none is first initialised inside a
  /// handler (Swift's lazy `static let` takes a lock: not async-signal-safe). Called once,
  /// before the handlers are installed.
  static func initializeStatics() {
    _ = armed.load(ordering: .relaxed)
    _ = sessionActive.load(ordering: .relaxed)
    _ = suspended.load(ordering: .relaxed)
    _ = resumeCount.load(ordering: .relaxed)
    _ = stopsProcess.load(ordering: .relaxed)
    _ = wakePipeWrite.load(ordering: .relaxed)
    _ = (input, output, leaveBytes, leaveLength, enterBytes, enterLength)
    _ = (savedTermios, rawTermios, Wake.resized, Wake.resumed, Wake.stopping)
  }

  /// Takes the terminal on `input`/`output`: restores it to `original` with `leave`, and after
  /// a suspend re-enters `raw` with `enter`. Installs the handlers on first use. Called from
  /// the session's thread before the terminal is changed.
  static func arm(
    input: Int32, output: Int32, original: termios, raw: termios, leave: [UInt8],
    enter: [UInt8], wakePipe: Int32
  ) {
    armed.store(false, ordering: .sequentiallyConsistent)
    sessionActive.store(false, ordering: .sequentiallyConsistent)
    copy(leave, into: leaveBytes, length: &leaveLength)
    copy(enter, into: enterBytes, length: &enterLength)
    savedTermios.pointee = original
    rawTermios.pointee = raw
    self.input = input
    self.output = output
    wakePipeWrite.store(wakePipe, ordering: .sequentiallyConsistent)
    suspended.store(false, ordering: .sequentiallyConsistent)
    sessionActive.store(true, ordering: .sequentiallyConsistent)
    armed.store(true, ordering: .sequentiallyConsistent)
    AlternateSignalStack.installForCurrentThread()
    SignalHandlers.installOnce()
  }

  /// Replaces the restore bytes (e.g. once kitty images have been shown). Filled while
  /// disarmed, so a signal never sees half a sequence.
  static func update(leave bytes: [UInt8]) {
    let wasArmed = armed.exchange(false, ordering: .sequentiallyConsistent)
    copy(bytes, into: leaveBytes, length: &leaveLength)
    if wasArmed { armed.store(true, ordering: .sequentiallyConsistent) }
  }

  /// The session gave the terminal back itself: no handler touches it any more.
  static func endSession() {
    sessionActive.store(false, ordering: .sequentiallyConsistent)
    armed.store(false, ordering: .sequentiallyConsistent)
    suspended.store(false, ordering: .sequentiallyConsistent)
    wakePipeWrite.store(-1, ordering: .sequentiallyConsistent)
  }

  /// Restores once: the leave bytes, then the original termios. Async-signal-safe.
  static func restoreNow() {
    guard armed.exchange(false, ordering: .sequentiallyConsistent) else { return }
    writeAll(leaveBytes, leaveLength)
    tcsetattr(input, TCSANOW, savedTermios)
  }

  /// SIGTSTP's half: restores and marks the session suspended. Async-signal-safe.
  static func suspendNow() {
    guard sessionActive.load(ordering: .sequentiallyConsistent) else { return }
    restoreNow()
    suspended.store(true, ordering: .sequentiallyConsistent)
  }

  /// SIGCONT's half: when the session holds the terminal and the process is in the
  /// foreground, re-enters raw mode and the modes and wakes the reader, which reports a
  /// resize so the app redraws. In the background (`bg`) it waits for the SIGCONT of `fg`.
  /// Also after a SIGSTOP, which no handler sees: the terminal was left as it was, and the
  /// shell may have written over it. Async-signal-safe.
  static func resumeNow() {
    guard sessionActive.load(ordering: .sequentiallyConsistent) else { return }
    let foreground = tcgetpgrp(output)
    if foreground >= 0, foreground != getpgrp() { return }
    tcsetattr(input, TCSANOW, rawTermios)
    writeAll(enterBytes, enterLength)
    suspended.store(false, ordering: .sequentiallyConsistent)
    armed.store(true, ordering: .sequentiallyConsistent)
    resumeCount.add(1, ordering: .sequentiallyConsistent)
    wake(Wake.resumed)
  }

  /// Tells the session's reader something happened. Async-signal-safe.
  static func wake(_ byte: UInt8) {
    let descriptor = wakePipeWrite.load(ordering: .sequentiallyConsistent)
    guard descriptor >= 0 else { return }
    var value = byte
    _ = write(descriptor, &value, 1)
  }

  private static func writeAll(_ bytes: UnsafeMutablePointer<UInt8>, _ length: Int) {
    var offset = 0
    while offset < length {
      let written = write(output, bytes + offset, length - offset)
      if written < 0, errno == EINTR { continue }
      if written <= 0 { break }
      offset += written
    }
  }

  private static func copy(
    _ bytes: [UInt8], into buffer: UnsafeMutablePointer<UInt8>, length: inout Int
  ) {
    let count = min(bytes.count, capacity)
    for index in 0..<count { buffer[index] = bytes[index] }
    length = count
  }
}
