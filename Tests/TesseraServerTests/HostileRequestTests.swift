import Foundation
import Hummingbird
import HummingbirdTesting
import TesseraUtilities
import Testing

@testable import TesseraServer

/// Every number a request carries is checked before arithmetic: one GET never kills the
/// server. Each answer is either a page (empty past the end) or a 400/404 with a reason.
@Suite(.timeLimit(.minutes(1))) struct HostileRequestTests {
  static let feed = "/services/feeds/photos_public.gne?format=json&nojsoncallback=1"

  func items(_ response: TestResponse) throws -> [[String: Any]] {
    let root = try #require(try json(response) as? [String: Any])
    return try #require(root["items"] as? [[String: Any]])
  }

  /// Pages past the last, however large (Int.max overflowed `(page - 1) * perPage` and trapped),
  /// are empty pages.
  @Test(arguments: [
    "&page=9223372036854775807", "&page=9223372036854775807&per_page=500",
    "&page=9223372036854775806&per_page=2", "&page=99999999999999999999999999999999",
    "&page=7", "&page=000000000000000000000000000000000000000007",
  ])
  func pagesPastTheEndAreEmpty(query: String) async throws {
    try await withRouter { client, _ in
      let response = try await client.execute(uri: Self.feed + query, method: .get)
      #expect(response.status == .ok)
      #expect(try items(response).isEmpty)
      let root = try #require(try json(response) as? [String: Any])
      #expect(root["total"] as? Int == 120)
    }
  }

  @Test func theLastPageIsFullAndTheOneAfterIsEmpty() async throws {
    try await withRouter { client, _ in
      let last = try await client.execute(uri: Self.feed + "&page=6", method: .get)
      #expect(try items(last).count == 20)
      let after = try await client.execute(uri: Self.feed + "&page=7", method: .get)
      #expect(try items(after).isEmpty)
    }
  }

  @Test(arguments: [
    "&page=-1", "&page=-9223372036854775808", "&page=0", "&page=abc", "&page=", "&page=+1",
    "&page=1e3", "&page=%201", "&page=1.5", "&page=%D9%A3",
    "&per_page=9223372036854775807", "&per_page=99999999999999999999999", "&per_page=-5",
    "&per_page=0", "&per_page=501", "&per_page=", "&per_page=0x10", "&per_page=NaN",
  ])
  func badNumbersAreRefusedWithAReason(query: String) async throws {
    try await withRouter { client, _ in
      let response = try await client.execute(uri: Self.feed + query, method: .get)
      #expect(response.status == .badRequest)
      #expect(response.text.contains("whole number"))
    }
  }

  @Test(arguments: [
    "/photos/9223372036854775807_abc_m.jpg", "/photos/-9223372036854775808_abc_m.jpg",
    "/photos/-1_abc_m.jpg", "/photos/99999999999999999999999_abc_m.jpg",
    "/avatars/9223372036854775807.png", "/avatars/-9223372036854775808.png",
    "/avatars/99999999999999999999.png", "/avatars/-1_q.png",
  ])
  func imageIdsOutsideTheCatalogAre404(uri: String) async throws {
    try await withRouter { client, _ in
      let response = try await client.execute(uri: uri, method: .get)
      #expect(response.status == .notFound)
    }
  }

  /// A forged `If-Modified-Since` is ignored, not fed to the calendar.
  @Test(arguments: [
    "Sat, 99999999999999 Jun 2024 12:00:00 GMT", "Sat, 01 Jun 9223372036854775807 12:00:00 GMT",
    "Sat, 01 Jun 2024 99:99:99 GMT", "Sat, -1 Jun 2024 12:00:00 GMT",
    "Sat, 01 Jun 2024 12:00:-9223372036854775808 GMT",
  ])
  func forgedDatesAreIgnored(date: String) async throws {
    try await withRouter { client, _ in
      let response = try await client.execute(
        uri: "/users.json", method: .get, headers: [.ifModifiedSince: date])
      #expect(response.status == .ok)
    }
    #expect(HTTPDate.parse(date, now: Date()) == nil)
  }

  @Test func publicHelpersTakeAnyId() {
    #expect(GeneratedImages.secret(id: -5, seed: 1).count == 10)
    #expect(Catalog.tags(id: Int.min, seed: 1).count >= 1)
    #expect(GeneratedImages.path(id: Int.min, size: "m").hasPrefix("photos/"))
    #expect(GeneratedImages.size(id: Int.min, size: "m") == nil)
    #expect(throws: GeneratedImages.Failure.self) { try GeneratedImages.photo(id: -1, size: "m") }
    _ = FaultPlan(failureRate: 1).decide(seed: 1, request: "GET /", attempt: Int.min)
  }

  @Test(arguments: [
    (FeedServer.Configuration(port: 70_000), "the port must be between 0 and 65535, not 70000"),
    (FeedServer.Configuration(port: -1), "the port must be between 0 and 65535, not -1"),
    (
      FeedServer.Configuration(itemCount: 1 << 40),
      "the number of photos must be between 0 and 1000000, not 1099511627776"
    ),
    (
      FeedServer.Configuration(userCount: -3),
      "the number of users must be between 0 and 100000, not -3"
    ),
    (
      FeedServer.Configuration(imageCacheBytes: Int.max),
      "the image cache must be between 0 and 16 GiB"
    ),
  ])
  func configurationsOutsideTheLimitsAreNamed(
    configuration: FeedServer.Configuration, reason: String
  ) {
    #expect(configuration.problem == reason)
  }

  @Test func aServerWithABadPortDoesNotStart() async throws {
    let server = FeedServer(configuration: .init(port: 70_000, itemCount: 10, userCount: 1))
    await #expect(throws: FeedServer.StartError.self) { try await server.start() }
    #expect(server.baseURL == nil)
    #expect(FeedServer.Configuration.small().problem == nil)
  }
}
