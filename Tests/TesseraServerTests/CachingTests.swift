import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import TesseraServer

@Suite(.timeLimit(.minutes(1))) struct CachingTests {
  static let routes = [
    "/services/feeds/photos_public.gne?format=json&nojsoncallback=1", "/users.json",
    "/avatars/3.png",
  ]

  @Test(arguments: routes)
  func answersCarryValidatorsAndFreshness(uri: String) async throws {
    try await withRouter { client, _ in
      let response = try await client.execute(uri: uri, method: .get)
      #expect(response.status == .ok)
      let etag = try #require(response.headers[.eTag])
      #expect(etag.hasPrefix("\"") && etag.hasSuffix("\""))
      #expect(response.headers[.lastModified] == "Sat, 01 Jun 2024 12:00:00 GMT")
      #expect(response.headers[.cacheControl]?.contains("max-age=") == true)
    }
  }

  @Test(arguments: routes)
  func matchingETagRevalidatesTo304WithoutBody(uri: String) async throws {
    try await withRouter { client, _ in
      let first = try await client.execute(uri: uri, method: .get)
      let etag = try #require(first.headers[.eTag])
      let second = try await client.execute(
        uri: uri, method: .get, headers: [.ifNoneMatch: "\"other\", \(etag)"])
      #expect(second.status == .notModified)
      #expect(second.body.readableBytes == 0)
      #expect(second.headers[.eTag] == etag)
      #expect(second.headers[.cacheControl] == first.headers[.cacheControl])
    }
  }

  @Test func staleETagGetsTheFullBody() async throws {
    try await withRouter { client, _ in
      let response = try await client.execute(
        uri: "/users.json", method: .get, headers: [.ifNoneMatch: "\"0000\""])
      #expect(response.status == .ok)
      #expect(response.body.readableBytes > 0)
    }
  }

  @Test func ifModifiedSinceRevalidates() async throws {
    try await withRouter { client, _ in
      let same = try await client.execute(
        uri: "/users.json", method: .get,
        headers: [.ifModifiedSince: "Sat, 01 Jun 2024 12:00:00 GMT"])
      #expect(same.status == .notModified)
      let older = try await client.execute(
        uri: "/users.json", method: .get,
        headers: [.ifModifiedSince: "Fri, 31 May 2024 12:00:00 GMT"])
      #expect(older.status == .ok)
      let garbage = try await client.execute(
        uri: "/users.json", method: .get, headers: [.ifModifiedSince: "yesterday"])
      #expect(garbage.status == .ok)
    }
  }

  /// RFC 9110 asks a recipient to read all three date formats a client may send.
  @Test(arguments: ["Saturday, 01-Jun-24 12:00:00 GMT", "Sat Jun  1 12:00:00 2024"])
  func ifModifiedSinceInTheObsoleteFormatsRevalidates(date: String) async throws {
    try await withRouter { client, _ in
      let response = try await client.execute(
        uri: "/users.json", method: .get, headers: [.ifModifiedSince: date])
      #expect(response.status == .notModified)
    }
  }

  @Test func etagIsTheSameAcrossServersWithTheSameSeed() async throws {
    let uri = "/photos/5_\(GeneratedImages.secret(id: 5, seed: 7))_t.jpg"
    let first = try await withRouter { client, _ in
      try await client.execute(uri: uri, method: .get).headers[.eTag]
    }
    let second = try await withRouter { client, _ in
      try await client.execute(uri: uri, method: .get).headers[.eTag]
    }
    #expect(first != nil)
    #expect(first == second)
  }
}
