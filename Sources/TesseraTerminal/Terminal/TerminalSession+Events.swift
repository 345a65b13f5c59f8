import Foundation

extension TerminalSession {
  /// Input as an async stream, read on a thread of its own so the main actor never blocks
  /// on the terminal. Finishes when the input ends (EOF, hang-up, a read error: see
  /// ``inputEnded``, on which the app should quit), when the consumer stops iterating, or when
  /// the session is restored. Use either this or ``readEvents(timeout:escapeTimeout:)``, not
  /// both.
  public func events(escapeTimeout: Duration = .milliseconds(25)) -> AsyncStream<InputEvent> {
    let (stream, continuation) = AsyncStream.makeStream(of: InputEvent.self)
    let stop = AtomicFlag()
    let ended = endOfInputFlag
    let (input, output, pipe) = (self.input, self.output, wakePipe)
    let escape = Self.milliseconds(escapeTimeout)
    for event in takeQueued() { continuation.yield(event) }
    let wakeReader: @Sendable () -> Void = {
      stop.set()
      pipe.wake(SignalRestore.Wake.stopping)
    }
    continuation.onTermination = { _ in wakeReader() }
    addRestoreHook { wakeReader() }
    let thread = Thread {
      // A stack overflow on this thread must still restore the terminal.
      let signalStack = AlternateSignalStack.installForCurrentThread()
      // The thread holds the pipe: it stays open while this loop may poll it.
      var pump = InputPump(input: input, output: output, wake: pipe.read)
      while !stop.isSet, !pump.ended {
        // No timeout unless a lone ESC waits to be told apart from a sequence: stopping
        // writes to the wake pipe, so an idle terminal costs no wake-ups.
        let step = pump.next(timeout: pump.parser.needsTimeout ? escape : -1)
        for event in step.events { continuation.yield(event) }
      }
      if pump.ended { ended.set() }
      continuation.finish()
      AlternateSignalStack.remove(signalStack)
    }
    thread.name = "tessera-terminal-input"
    thread.start()
    return stream
  }
}
