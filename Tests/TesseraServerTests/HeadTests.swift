import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import TesseraServer

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// HEAD answers every route with GET's status and headers, Content-Length included, and no
/// body.
@Suite(.timeLimit(.minutes(1))) struct HeadTests {
  static let compared: [HTTPField.Name] = [
    .contentType, .contentLength, .eTag, .lastModified, .cacheControl,
  ]

  func paths(_ routes: FeedRoutes) -> [String] {
    let secret = GeneratedImages.secret(id: 9, seed: routes.catalog.seed)
    return [
      RoutesTests.feed, RoutesTests.feed + "&page=2&per_page=7", "/users.json",
      "/photos/9_\(secret)_m.jpg", "/photos/9_\(secret)_t.webp", "/avatars/3.png", "/",
      "/photos/9_0000000000_m.jpg",
    ]
  }

  @Test func headMirrorsGetWithoutTheBody() async throws {
    try await withRouter { client, routes in
      for path in paths(routes) {
        let get = try await client.execute(uri: path, method: .get)
        let head = try await client.execute(uri: path, method: .head)
        #expect(head.status == get.status, "\(path)")
        #expect(head.body.readableBytes == 0, "\(path)")
        for name in Self.compared {
          #expect(head.headers[name] == get.headers[name], "\(path) \(name)")
        }
        #expect(head.headers[.contentLength] == String(get.body.readableBytes), "\(path)")
      }
    }
  }

  @Test func headRevalidatesLikeGet() async throws {
    try await withRouter { client, _ in
      let get = try await client.execute(uri: "/users.json", method: .get)
      let etag = try #require(get.headers[.eTag])
      let head = try await client.execute(
        uri: "/users.json", method: .head, headers: [.ifNoneMatch: etag])
      #expect(head.status == .notModified)
    }
  }

  @Test func otherMethodsNameBoth() async throws {
    try await withRouter { client, _ in
      let response = try await client.execute(uri: "/users.json", method: .options)
      #expect(response.status == .methodNotAllowed)
      #expect(response.headers[.allow] == "GET, HEAD")
    }
  }

  /// Over a real socket: the HEAD answer carries no body bytes, so the next request on the same
  /// connection still parses.
  @Test func headOverTheWireKeepsTheConnectionUsable() async throws {
    try await withLiveServer { server, base in
      let url = try #require(server.feedURL)
      let session = URLSession(configuration: .ephemeral)
      defer { session.finishTasksAndInvalidate() }
      var request = URLRequest(url: url)
      request.httpMethod = "HEAD"
      let (empty, headResponse) = try await session.data(for: request)
      let head = try #require(headResponse as? HTTPURLResponse)
      #expect(head.statusCode == 200)
      #expect(empty.isEmpty)
      let (body, getResponse) = try await session.data(from: url)
      let get = try #require(getResponse as? HTTPURLResponse)
      #expect(get.statusCode == 200)
      #expect(head.value(forHTTPHeaderField: "Content-Length") == String(body.count))
      #expect(head.value(forHTTPHeaderField: "ETag") == get.value(forHTTPHeaderField: "ETag"))
      _ = base
    }
  }
}
