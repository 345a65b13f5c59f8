import Foundation
import TesseraTestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// A tiny HTTP server on 127.0.0.1 whose answers a test writes byte by byte: endless bodies,
/// lying Content-Lengths, silence, trickles. Each connection has its own thread; `answer` runs
/// for every request head read on it (with the request line) until the client closes;
/// `events` tells the test what happened, so it waits on facts, never on time. `stop()` closes
/// every socket and waits for every thread.
final class LoopbackServer: Sendable {
  /// What the server saw, in order.
  enum Event: Equatable, Sendable {
    /// A request head arrived; its first line.
    case request(String)
    /// `answer` returned for a connection, having written `sent` bytes.
    case answered(sent: Int)
  }

  /// One accepted connection, for `answer` to write to.
  final class Connection: @unchecked Sendable {
    let descriptor: Int32
    private(set) var sent = 0

    init(descriptor: Int32) {
      self.descriptor = descriptor
    }

    /// Writes all of `bytes`; false once the client has gone (or the server stops).
    @discardableResult
    func write(_ bytes: [UInt8]) -> Bool {
      var offset = 0
      while offset < bytes.count {
        let count = bytes[offset...].withUnsafeBytes {
          send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
        }
        if count < 0, errno == EINTR { continue }
        guard count > 0 else { return false }
        offset += count
        sent += count
      }
      return true
    }

    @discardableResult
    func write(_ text: String) -> Bool { write(Array(text.utf8)) }

    /// Blocks until the client closes the connection (or the server stops).
    func waitForClose() {
      var byte: UInt8 = 0
      while true {
        let count = recv(descriptor, &byte, 1, 0)
        if count < 0, errno == EINTR { continue }
        if count <= 0 { return }
      }
    }
  }

  let port: Int
  let events: AsyncStream<Event>
  private let continuation: AsyncStream<Event>.Continuation
  private let listener: Int32

  private struct State {
    var open: Set<Int32> = []
    var stopped = false
    /// Threads still running: the accept loop and one per connection.
    var threads = 0
  }

  private let state = WaitableState(State())

  init(answer: @escaping @Sendable (Connection, String) -> Void) throws {
    (events, continuation) = AsyncStream.makeStream()
    guard let (listener, port) = LoopbackSocket.listen() else {
      throw POSIXError(.EADDRNOTAVAIL)
    }
    self.listener = listener
    self.port = port
    state.withLock { $0.threads += 1 }
    Thread.detachNewThread { [self] in
      acceptLoop(answer)
      state.withLock { $0.threads -= 1 }
    }
  }

  var url: URL { URL(string: "http://127.0.0.1:\(port)/feed.json")! }

  private func acceptLoop(_ answer: @escaping @Sendable (Connection, String) -> Void) {
    while true {
      let descriptor = accept(listener, nil, nil)
      if descriptor < 0 {
        if errno == EINTR { continue }
        return
      }
      let admitted = state.withLock { state in
        if state.stopped { return false }
        state.open.insert(descriptor)
        state.threads += 1
        return true
      }
      guard admitted else {
        close(descriptor)
        return
      }
      Thread.detachNewThread { [self] in
        serve(Connection(descriptor: descriptor), answer)
        state.withLock { $0.threads -= 1 }
      }
    }
  }

  private func serve(_ connection: Connection, _ answer: (Connection, String) -> Void) {
    while let line = readRequestHead(connection.descriptor) {
      continuation.yield(.request(line))
      answer(connection, line)
      continuation.yield(.answered(sent: connection.sent))
    }
    state.withLock { _ = $0.open.remove(connection.descriptor) }
    close(connection.descriptor)
  }

  /// Reads up to the blank line; answers the request line.
  private func readRequestHead(_ descriptor: Int32) -> String? {
    var head: [UInt8] = []
    var byte: UInt8 = 0
    while head.count < 65_536 {
      let count = recv(descriptor, &byte, 1, 0)
      if count < 0, errno == EINTR { continue }
      guard count == 1 else { return nil }
      head.append(byte)
      if head.suffix(4) == [13, 10, 13, 10] {
        let text = String(decoding: head, as: UTF8.self)
        return text.components(separatedBy: "\r\n").first
      }
    }
    return nil
  }

  /// Closes the listener and every connection, then waits for every thread to end (or for the
  /// task's cancellation: a test past its time limit fails instead of hanging).
  func stop() async {
    let descriptors = state.withLock { state in
      state.stopped = true
      return state.open
    }
    shutdown(listener, Int32(SHUT_RDWR))
    for descriptor in descriptors { shutdown(descriptor, Int32(SHUT_RDWR)) }
    await state.wait { $0.threads == 0 }
    // After a cancelled wait a thread may still use the listener: it stays open (leaked)
    // rather than be closed under that thread, whose next call could reach another test's
    // socket given the same number.
    if state.withLock({ $0.threads == 0 }) { close(listener) }
    continuation.finish()
  }

  /// Runs `body` with a server answering with `answer`, stopping it afterwards.
  @discardableResult
  static func with<Value>(
    answer: @escaping @Sendable (Connection, String) -> Void,
    _ body: (LoopbackServer) async throws -> Value
  ) async throws -> Value {
    let server = try LoopbackServer(answer: answer)
    do {
      let value = try await body(server)
      await server.stop()
      return value
    } catch {
      await server.stop()
      throw error
    }
  }

  /// The first event matching `predicate`.
  func next(where predicate: (Event) -> Bool) async -> Event? {
    for await event in events where predicate(event) { return event }
    return nil
  }
}
