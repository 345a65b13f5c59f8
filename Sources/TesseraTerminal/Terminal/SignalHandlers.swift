#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The signal handlers that keep the terminal usable, installed once per process, all with
/// `SA_ONSTACK` so that they run on the ``AlternateSignalStack`` (a stack overflow still
/// restores the terminal):
/// - signals that end the process (`fatalSignals`): restore, then the previous action;
/// - SIGTSTP (`kill -TSTP`, or ``TerminalSession/suspend()`` for Ctrl-Z, which raw mode
///   delivers as a key): restore, then really stop, with the default action;
/// - SIGCONT (`fg`, or `kill -CONT` after any stop, SIGSTOP included): take the terminal back
///   and wake the reader, which reports a resize so the app redraws everything;
/// - SIGWINCH: wake the reader, which reports the new size.
///
/// Every handler keeps `errno` and calls only async-signal-safe functions.
enum SignalHandlers {
  /// Signals that end the process: restore, then let the previous action (default: die, or
  /// the Swift runtime's crash backtracer) run.
  static let fatalSignals: [Int32] = [
    SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP,
  ]

  private static let slots = 65
  nonisolated(unsafe) private static let previousActions = UnsafeMutablePointer<sigaction>
    .allocate(capacity: slots)
  /// Installs every handler the first time; later calls, from any thread, do nothing (a
  /// second installation would record our own handler as its "previous" action, and a fatal
  /// signal would then loop).
  static func installOnce() { _ = installation }

  /// Swift runs a `static let`'s initialiser exactly once, whichever threads race to it.
  private static let installation: Void = {
    SignalRestore.initializeStatics()
    _ = previousActions
    for signal in fatalSignals {
      install(signal, flags: SA_ONSTACK, previous: previousActions + Int(signal)) { signal in
        let saved = errno
        SignalRestore.restoreNow()
        sigaction(signal, SignalHandlers.previousActions + Int(signal), nil)
        raise(signal)
        errno = saved
      }
    }
    installStop()
    install(SIGCONT, flags: SA_RESTART | SA_ONSTACK) { _ in
      let saved = errno
      SignalRestore.resumeNow()
      errno = saved
    }
    install(SIGWINCH, flags: SA_RESTART | SA_ONSTACK) { _ in
      let saved = errno
      SignalRestore.wake(SignalRestore.Wake.resized)
      errno = saved
    }
    atexit { SignalRestore.restoreNow() }
  }()

  /// SIGTSTP: restore, then stop for real with the default action (unblocked for the
  /// moment, as the handler runs with it blocked); once continued, this handler again.
  private static func installStop() {
    install(SIGTSTP, flags: SA_RESTART | SA_ONSTACK) { _ in
      let saved = errno
      SignalRestore.suspendNow()
      if SignalRestore.stopsProcess.load(ordering: .sequentiallyConsistent) {
        var stop = sigaction()
        stop.__sigaction_handler.sa_handler = SIG_DFL
        sigemptyset(&stop.sa_mask)
        sigaction(SIGTSTP, &stop, nil)
        var mask = sigset_t()
        sigemptyset(&mask)
        sigaddset(&mask, SIGTSTP)
        sigprocmask(SIG_UNBLOCK, &mask, nil)
        raise(SIGTSTP)  // Stops here until SIGCONT, whose handler takes the terminal back.
        SignalHandlers.installStop()
        // The kernel discards the stop in an orphaned process group (no shell to continue
        // it, e.g. run straight under tmux): then no SIGCONT comes, so take it back now.
        if SignalRestore.suspended.load(ordering: .sequentiallyConsistent) {
          SignalRestore.resumeNow()
        }
      }
      errno = saved
    }
  }

  private static func install(
    _ signal: Int32, flags: Int32, previous: UnsafeMutablePointer<sigaction>? = nil,
    handler: @convention(c) (Int32) -> Void
  ) {
    var action = sigaction()
    action.__sigaction_handler.sa_handler = handler
    sigemptyset(&action.sa_mask)
    action.sa_flags = flags
    sigaction(signal, &action, previous)
  }
}
