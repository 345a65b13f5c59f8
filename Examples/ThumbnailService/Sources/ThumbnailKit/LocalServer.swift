import Hummingbird

/// A Hummingbird router served on 127.0.0.1, on a port the system picks, for as long as a
/// body runs: the tour's private origin, the benchmark's origin and service.
public enum LocalServer {
  struct NoPort: Error {}

  /// `body`'s result, run with the port `router` is served on; the server stops with it.
  public static func with<Result: Sendable>(
    _ router: Router<BasicRequestContext>, _ body: @Sendable (Int) async throws -> Result
  ) async throws -> Result {
    let (ports, continuation) = AsyncStream<Int>.makeStream()
    let app = Application(
      router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
      onServerRunning: { continuation.yield($0.localAddress?.port ?? 0) })
    return try await withThrowingTaskGroup(of: Result?.self) { group in
      group.addTask {
        try await app.run()
        return nil
      }
      var iterator = ports.makeAsyncIterator()
      guard let port = await iterator.next() else { throw NoPort() }
      defer { group.cancelAll() }
      return try await body(port)
    }
  }
}
