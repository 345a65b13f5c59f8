import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

extension TerminalSession {
  /// Input as an async stream, read on a thread of its own so the main actor never blocks
  /// on the terminal. Ends when the consumer stops iterating or the session is restored.
  /// Use either this or ``readEvents(timeout:escapeTimeout:)``, not both.
  public func events(escapeTimeout: Duration = .milliseconds(25)) -> AsyncStream<InputEvent> {
    let (stream, continuation) = AsyncStream.makeStream(of: InputEvent.self)
    let stop = StopFlag()
    let input = self.input
    let output = self.output
    let resizeRead = resizePipeRead
    for event in takeQueued() { continuation.yield(event) }
    continuation.onTermination = { _ in stop.set() }
    addRestoreHook { stop.set() }
    let thread = Thread {
      var parser = InputParser()
      var waitingForEscape = false
      while !stop.isSet {
        var descriptors = [
          pollfd(fd: input, events: Int16(POLLIN), revents: 0),
          pollfd(fd: resizeRead, events: Int16(POLLIN), revents: 0),
        ]
        let timeout: Int32 = waitingForEscape ? Self.milliseconds(escapeTimeout) : 50
        let ready = poll(&descriptors, 2, timeout)
        if ready < 0 {
          if errno == EINTR { continue }
          break
        }
        if ready == 0 {
          if waitingForEscape {
            for event in parser.flush() { continuation.yield(event) }
            waitingForEscape = false
          }
          continue
        }
        if descriptors[0].revents & Int16(POLLNVAL | POLLERR | POLLHUP) != 0 { break }
        if descriptors[1].revents & Int16(POLLIN) != 0 {
          var drain = [UInt8](repeating: 0, count: 64)
          while read(resizeRead, &drain, drain.count) > 0 {}
          continuation.yield(.resize(Self.windowSize(of: output)))
        }
        if descriptors[0].revents & Int16(POLLIN) != 0 {
          var buffer = [UInt8](repeating: 0, count: 4096)
          let count = read(input, &buffer, buffer.count)
          if count == 0 { break }
          if count > 0 {
            for event in parser.feed(buffer[..<count]) { continuation.yield(event) }
          }
        }
        waitingForEscape = parser.needsTimeout
      }
      continuation.finish()
    }
    thread.name = "tessera-terminal-input"
    thread.start()
    return stream
  }
}

/// A flag one thread sets and another polls.
final class StopFlag: @unchecked Sendable {
  private let lock = NSLock()
  private var value = false

  var isSet: Bool { lock.withLock { value } }
  func set() { lock.withLock { value = true } }
}
