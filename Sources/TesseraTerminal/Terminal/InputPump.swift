import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// One reader of the terminal: waits on the input and the session's wake pipe, decodes what
/// arrives, and notices when the input ends. Shared by ``TerminalSession/readEvents(timeout:escapeTimeout:)``
/// and ``TerminalSession/events(escapeTimeout:)``, so both treat EOF, hang-ups, resizes and
/// resumes alike.
struct InputPump {
  let input: Int32
  let output: Int32
  let wake: Int32
  var parser = InputParser()
  /// The input ended: a read of 0 bytes (EOF), a hang-up, or a read error such as EIO (a
  /// pseudo-terminal whose other side closed). Nothing more is read once it is set.
  private(set) var ended = false

  init(input: Int32, output: Int32, wake: Int32) {
    self.input = input
    self.output = output
    self.wake = wake
  }

  /// What one wait produced.
  struct Step {
    var events: [InputEvent] = []
    /// Nothing arrived within the timeout (pending bytes were then resolved).
    var timedOut = false
  }

  /// Waits up to `timeout` milliseconds for input or a wake-up and decodes what arrived; on a
  /// timeout, resolves a pending lone ESC. A wake-up (SIGWINCH, or a SIGCONT that took the
  /// terminal back) yields `.resize` with the current size.
  mutating func next(timeout: Int32) -> Step {
    var step = Step()
    guard !ended else { return step }
    var descriptors = [
      pollfd(fd: input, events: Int16(POLLIN), revents: 0),
      pollfd(fd: wake, events: Int16(POLLIN), revents: 0),
    ]
    let ready = poll(&descriptors, 2, timeout)
    if ready < 0 {
      if errno != EINTR && errno != EAGAIN { end(&step) }
      return step
    }
    if ready == 0 {
      step.timedOut = true
      if parser.needsTimeout { step.events += parser.flush() }
      return step
    }
    if descriptors[1].revents & Int16(POLLIN) != 0, drainWakePipe() {
      step.events.append(.resize(TerminalSession.windowSize(of: output)))
    }
    let inputEvents = descriptors[0].revents
    if inputEvents & Int16(POLLNVAL) != 0 {
      end(&step)
    } else if inputEvents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
      readInput(hungUp: inputEvents & Int16(POLLHUP | POLLERR) != 0, into: &step)
    }
    return step
  }

  private mutating func readInput(hungUp: Bool, into step: inout Step) {
    var buffer = [UInt8](repeating: 0, count: 4096)
    let count = read(input, &buffer, buffer.count)
    if count > 0 {
      step.events += parser.feed(buffer[..<count])
    } else if count == 0 {
      end(&step)
    } else if errno == EINTR || (errno == EAGAIN && !hungUp) {
      return
    } else {
      end(&step)
    }
  }

  private mutating func end(_ step: inout Step) {
    ended = true
    step.events += parser.flush()
  }

  /// Empties the wake pipe; true when it held anything.
  private func drainWakePipe() -> Bool {
    var drain = [UInt8](repeating: 0, count: 64)
    var any = false
    while read(wake, &drain, drain.count) > 0 { any = true }
    return any
  }
}

/// A flag one thread sets and others read.
final class AtomicFlag: Sendable {
  private let value = Atomic<Bool>(false)

  var isSet: Bool { value.load(ordering: .acquiring) }
  func set() { value.store(true, ordering: .releasing) }
}
