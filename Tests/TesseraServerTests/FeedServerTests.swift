import Foundation
import TesseraTestSupport
import Testing

@testable import TesseraServer

@Suite(.serialized, .timeLimit(.minutes(2))) struct FeedServerTests {
  @Test func startsOnLoopbackAnyFreePortAndStops() async throws {
    let server = FeedServer(configuration: .small())
    let base = try await server.start()
    #expect(base.host == "127.0.0.1")
    #expect((base.port ?? 0) > 0)
    #expect(base.absoluteString == "http://127.0.0.1:\(base.port ?? 0)/")
    #expect(try await server.start() == base)
    let feed = try #require(server.feedURL)
    #expect(
      feed.absoluteString.hasPrefix(base.absoluteString + "services/feeds/photos_public.gne?"))
    let answer = try await fetch(feed)
    #expect(answer.status == 200)
    // Links in the feed use the address the client used.
    #expect(String(decoding: answer.body, as: UTF8.self).contains("127.0.0.1:\(base.port ?? 0)"))
    await server.stop()
    #expect(server.baseURL == nil)
    await #expect(throws: TestHTTP.Failure.self) { try await fetch(feed, timeout: 2) }
    await server.stop()
  }

  @Test func aTakenPortIsAClearStartError() async throws {
    try await withLiveServer { _, base in
      let port = try #require(base.port)
      let second = FeedServer(configuration: .init(port: port, itemCount: 10))
      await #expect(throws: FeedServer.StartError.self) { try await second.start() }
    }
  }

  @Test func helperURLsServe() async throws {
    try await withLiveServer { server, _ in
      let paged = try #require(server.feedURL(tags: ["sea"], page: 2, perPage: 5))
      #expect(try await fetch(paged).status == 200)
      let users = try #require(server.usersURL)
      #expect(try await fetch(users).header("Content-Type") == "application/json; charset=utf-8")
      let image = try #require(server.imageURL(id: 4, size: "q"))
      let fetched = try await fetch(image)
      #expect(fetched.status == 200)
      #expect(TestImages.header(Array(fetched.body))?.width == 150)
      let statistics = await server.imageStatistics()
      #expect(statistics.generated == 1)
      _ = try await fetch(image)
      #expect(await server.imageStatistics().generated == 1)
      #expect(await server.imageStatistics().cacheHits == 1)
    }
  }

  @Test func revalidationOverTheWire() async throws {
    try await withLiveServer { server, _ in
      let image = try #require(server.imageURL(id: 6, size: "t"))
      let first = try await fetch(image)
      let etag = try #require(first.header("ETag"))
      #expect(first.header("Cache-Control") == "public, max-age=86400, immutable")
      let second = try await fetch(image, headers: ["If-None-Match": etag])
      #expect(second.status == 304)
      #expect(second.body.isEmpty)
    }
  }
}
