import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import TesseraTestSupport

@testable import TesseraServer

extension FeedServer.Configuration {
  /// A small catalog with strictly valid JSON, for fast tests.
  static func small(faults: FaultPlan = .none, seed: UInt64 = 7) -> Self {
    .init(itemCount: 120, userCount: 24, faults: faults, seed: seed, escapesApostrophes: false)
  }
}

/// Runs `body` against the server's router in memory (no sockets).
func withRouter<Value: Sendable>(
  _ configuration: FeedServer.Configuration = .small(),
  _ body: @Sendable (any TestClientProtocol, FeedRoutes) async throws -> Value
) async throws -> Value {
  let routes = FeedRoutes(configuration: configuration)
  let app = Application(router: routes.makeRouter())
  return try await app.test(.router) { client in try await body(client, routes) }
}

/// Runs `body` against a real server on a loopback port, stopping it afterwards.
func withLiveServer<Value: Sendable>(
  _ configuration: FeedServer.Configuration = .small(),
  _ body: (FeedServer, URL) async throws -> Value
) async throws -> Value {
  let server = FeedServer(configuration: configuration)
  let base = try await server.start()
  do {
    let value = try await body(server, base)
    await server.stop()
    return value
  } catch {
    await server.stop()
    throw error
  }
}

extension TestResponse {
  var bytes: [UInt8] { Array(body.readableBytesView) }
  var text: String { String(buffer: body) }
}

/// Parses a JSON body into Foundation objects.
func json(_ response: TestResponse) throws -> Any {
  try JSONSerialization.jsonObject(with: Data(response.bytes))
}

/// One HTTP exchange over a real socket.
typealias Fetched = TestHTTP.Answer

/// GETs `url` through AsyncHTTPClient (no cache of its own); throws the transport error.
func fetch(
  _ url: URL, headers: [String: String] = [:], timeout: Double = 10
) async throws -> Fetched {
  try await TestHTTP.get(url, headers: headers, timeout: timeout)
}
