#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Restores the terminal from places where ordinary code cannot run: signal handlers and
/// `atexit`. Everything a handler needs (the restore bytes, the saved termios, the previous
/// signal actions) is allocated before any handler is installed, so a handler only calls
/// async-signal-safe functions: `write`, `tcsetattr`, `sigaction`, `raise`.
enum SignalRestore {
  /// Signals that end the process: restore, then let the previous action (default: die,
  /// or the Swift runtime's crash backtracer) run.
  static let fatalSignals: [Int32] = [
    SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP,
  ]

  private static let slots = 65
  private static let capacity = 1024

  nonisolated(unsafe) private static var armed = false
  nonisolated(unsafe) private static var descriptor: Int32 = -1
  nonisolated(unsafe) private static var sequence = UnsafeMutablePointer<UInt8>.allocate(
    capacity: capacity)
  nonisolated(unsafe) private static var sequenceLength = 0
  nonisolated(unsafe) private static var savedTermios = UnsafeMutablePointer<termios>.allocate(
    capacity: 1)
  nonisolated(unsafe) private static var previousActions = UnsafeMutablePointer<sigaction>
    .allocate(capacity: slots)
  nonisolated(unsafe) private static var installed = false
  nonisolated(unsafe) static var resizePipeWrite: Int32 = -1

  /// Arms restoration of `descriptor` to `original` with `bytes`; installs the handlers on
  /// first use. Called from the main thread before the terminal is changed.
  static func arm(descriptor fd: Int32, original: termios, bytes: [UInt8]) {
    update(bytes: bytes)
    savedTermios.pointee = original
    descriptor = fd
    armed = true
    guard !installed else { return }
    installed = true
    for signal in fatalSignals {
      var action = sigaction()
      action.__sigaction_handler.sa_handler = { signal in
        SignalRestore.restoreNow()
        sigaction(signal, SignalRestore.previousActions + Int(signal), nil)
        raise(signal)
      }
      sigemptyset(&action.sa_mask)
      action.sa_flags = 0
      sigaction(signal, &action, previousActions + Int(signal))
    }
    var resize = sigaction()
    resize.__sigaction_handler.sa_handler = { _ in
      var byte: UInt8 = 1
      if SignalRestore.resizePipeWrite >= 0 { _ = write(SignalRestore.resizePipeWrite, &byte, 1) }
    }
    sigemptyset(&resize.sa_mask)
    resize.sa_flags = SA_RESTART
    sigaction(SIGWINCH, &resize, nil)
    atexit { SignalRestore.restoreNow() }
  }

  /// Replaces the restore bytes (e.g. once kitty images have been shown).
  static func update(bytes: [UInt8]) {
    // Filled while disarmed, so a signal never sees half a sequence.
    let wasArmed = armed
    armed = false
    let count = min(bytes.count, capacity)
    for index in 0..<count { sequence[index] = bytes[index] }
    sequenceLength = count
    armed = wasArmed
  }

  /// Restores once; async-signal-safe.
  static func restoreNow() {
    guard armed else { return }
    armed = false
    var offset = 0
    while offset < sequenceLength {
      let written = write(descriptor, sequence + offset, sequenceLength - offset)
      if written < 0, errno == EINTR { continue }
      if written <= 0 { break }
      offset += written
    }
    tcsetattr(descriptor, TCSANOW, savedTermios)
  }

  static func disarm() { armed = false }
}
