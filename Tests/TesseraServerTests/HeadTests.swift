import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import TesseraTestSupport
import Testing

@testable import TesseraServer

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
      // The shared client's pool keeps the connection for the GET that follows.
      let head = try await TestHTTP.head(url)
      #expect(head.status == 200)
      #expect(head.body.isEmpty)
      let get = try await TestHTTP.get(url)
      #expect(get.status == 200)
      #expect(head.header("Content-Length") == String(get.body.count))
      #expect(head.header("ETag") == get.header("ETag"))
      _ = base
    }
  }
}
