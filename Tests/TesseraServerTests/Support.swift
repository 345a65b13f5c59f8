import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore

@testable import TesseraServer

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

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
struct Fetched: CustomStringConvertible {
  let status: Int
  let headers: [String: String]
  let body: Data
  var description: String { "HTTP \(status), \(body.count) bytes" }

  func header(_ name: String) -> String? {
    headers.first { $0.key.lowercased() == name.lowercased() }?.value
  }
}

/// GETs `url` with a fresh cache-less session; throws the transport error.
func fetch(
  _ url: URL, headers: [String: String] = [:], timeout: Double = 10
) async throws -> Fetched {
  let configuration = URLSessionConfiguration.ephemeral
  configuration.urlCache = nil
  configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
  configuration.timeoutIntervalForRequest = timeout
  let session = URLSession(configuration: configuration)
  defer { session.finishTasksAndInvalidate() }
  var request = URLRequest(url: url)
  for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
  let (data, response) = try await session.data(for: request)
  guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
  var fields: [String: String] = [:]
  for (key, value) in http.allHeaderFields {
    if let key = key as? String, let value = value as? String { fields[key] = value }
  }
  return Fetched(status: http.statusCode, headers: fields, body: data)
}
