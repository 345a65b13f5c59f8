import Foundation
import Hummingbird
import HummingbirdTesting
import TesseraTestSupport
import Testing

@testable import TesseraServer

@Suite(.timeLimit(.minutes(1))) struct RoutesTests {
  static let feed = "/services/feeds/photos_public.gne?format=json&nojsoncallback=1"

  func items(_ response: TestResponse) throws -> [[String: Any]] {
    let root = try #require(try json(response) as? [String: Any])
    return try #require(root["items"] as? [[String: Any]])
  }

  @Test func feedHasFlickrShapeAndDefaultPage() async throws {
    try await withRouter { client, _ in
      let response = try await client.execute(uri: Self.feed, method: .get)
      #expect(response.status == .ok)
      #expect(response.headers[.contentType] == "application/json; charset=utf-8")
      let root = try #require(try json(response) as? [String: Any])
      #expect(root["title"] as? String == "Uploads from everyone")
      #expect(root["total"] as? Int == 120)
      #expect(root["pages"] as? Int == 6)
      let items = try items(response)
      #expect(items.count == 20)
      let first = try #require(items.first)
      for key in [
        "title", "link", "date_taken", "description", "published", "author", "author_id", "tags",
      ] {
        #expect(first[key] is String, "\(key)")
      }
      let media = try #require((first["media"] as? [String: String])?["m"])
      #expect(media.hasSuffix("_m.jpg") || media.hasSuffix("_m.png") || media.hasSuffix("_m.webp"))
      #expect((first["author"] as? String)?.hasPrefix("nobody@flickr.com (\"") == true)
      // Flickr escapes slashes.
      #expect(response.text.contains("http:\\/\\/"))
    }
  }

  @Test func pagingWalksEveryItemOnceNewestFirst() async throws {
    try await withRouter { client, _ in
      var links: [String] = []
      for page in 1...3 {
        let response = try await client.execute(
          uri: Self.feed + "&per_page=50&page=\(page)", method: .get)
        links += try items(response).compactMap { $0["link"] as? String }
      }
      #expect(links.count == 120)
      #expect(Set(links).count == 120)
      let ids = links.compactMap { Int($0.split(separator: "/").last ?? "") }
      #expect(ids == Array(1...120))
      let beyond = try await client.execute(uri: Self.feed + "&page=99", method: .get)
      #expect(try items(beyond).isEmpty)
    }
  }

  @Test func tagsFilterWithAllAndAny() async throws {
    try await withRouter { client, _ in
      let all = try items(
        try await client.execute(uri: Self.feed + "&tags=sea,city&per_page=500", method: .get))
      for item in all {
        let tags = (item["tags"] as? String ?? "").split(separator: " ")
        #expect(tags.contains("sea") && tags.contains("city"))
      }
      let any = try items(
        try await client.execute(
          uri: Self.feed + "&tags=sea,city&tagmode=any&per_page=500", method: .get))
      for item in any {
        let tags = (item["tags"] as? String ?? "").split(separator: " ")
        #expect(tags.contains("sea") || tags.contains("city"))
      }
      #expect(any.count > all.count)
      let none = try items(
        try await client.execute(uri: Self.feed + "&tags=nosuchtag", method: .get))
      #expect(none.isEmpty)
    }
  }

  @Test func withoutNoJSONCallbackTheFeedIsJSONP() async throws {
    try await withRouter { client, _ in
      let response = try await client.execute(
        uri: "/services/feeds/photos_public.gne?format=json", method: .get)
      #expect(response.text.hasPrefix("jsonFlickrFeed({"))
      #expect(response.text.hasSuffix("})"))
    }
  }

  @Test func apostrophesAreEscapedLikeFlickrWhenAsked() async throws {
    var configuration = FeedServer.Configuration.small()
    configuration.escapesApostrophes = true
    try await withRouter(configuration) { client, _ in
      let response = try await client.execute(uri: Self.feed + "&per_page=120", method: .get)
      #expect(response.text.contains("\\'"))
    }
  }

  @Test(arguments: [
    "/services/feeds/photos_public.gne", "/services/feeds/photos_public.gne?format=rss",
    Self.feed + "&page=0", Self.feed + "&per_page=501", Self.feed + "&per_page=x",
    Self.feed + "&tagmode=some",
  ])
  func badFeedQueriesAreRefusedWithAReason(uri: String) async throws {
    try await withRouter { client, _ in
      let response = try await client.execute(uri: uri, method: .get)
      #expect(response.status == .badRequest)
      #expect(!response.text.isEmpty)
    }
  }

  @Test func usersListHasSeedShapeAndEveryKindOfRole() async throws {
    try await withRouter { client, _ in
      let response = try await client.execute(uri: "/users.json", method: .get)
      #expect(response.status == .ok)
      let users = try #require(try json(response) as? [[String: Any]])
      #expect(users.count == 24)
      #expect(users.allSatisfy { $0["username"] is String && $0["avatar"] is String })
      let roles = Set(users.map { $0["role"] as? String ?? "(missing)" })
      #expect(roles.contains("User"))
      #expect(roles.isSuperset(of: ["User"]))
      #expect(roles.count >= 3)
      let avatar = try #require(users.first?["avatar"] as? String)
      let path = try #require(URL(string: avatar)?.path)
      let image = try await client.execute(uri: path, method: .get)
      #expect(image.status == .ok)
      #expect(image.headers[.contentType] == "image/png")
      #expect(TestImages.header(image.bytes)?.width == 150)
    }
  }

  @Test func mediaURLsOfTheFeedServeImagesOfTheStatedSize() async throws {
    try await withRouter { client, _ in
      let feed = try await client.execute(uri: Self.feed + "&per_page=10", method: .get)
      for item in try items(feed) {
        let media = try #require((item["media"] as? [String: String])?["m"])
        let description = try #require(item["description"] as? String)
        let response = try await client.execute(
          uri: try #require(URL(string: media)?.path), method: .get)
        #expect(response.status == .ok)
        let header = try #require(TestImages.header(response.bytes))
        #expect(description.contains("width=\"\(header.width)\" height=\"\(header.height)\""))
      }
    }
  }

  @Test func everySizeSuffixAndFormatIsServed() async throws {
    try await withRouter { client, routes in
      let secret = GeneratedImages.secret(id: 9, seed: routes.catalog.seed)
      for suffix in ["_s", "_q", "_t", "_m", "_n", "_w", "", "_z", "_c", "_b"] {
        let response = try await client.execute(
          uri: "/photos/9_\(secret)\(suffix).jpg", method: .get)
        #expect(response.status == .ok, "\(suffix)")
        #expect(response.headers[.contentType] == "image/jpeg")
      }
      for format in ImageFormat.allCases {
        let response = try await client.execute(
          uri: "/photos/9_\(secret)_t.\(format.rawValue)", method: .get)
        #expect(response.headers[.contentType] == format.contentType)
      }
    }
  }

  @Test(arguments: [
    "/photos/9_0000000000_m.jpg", "/photos/0_abc_m.jpg", "/photos/121_abc_m.jpg",
    "/photos/9_SECRET_x.jpg", "/photos/9_SECRET_m.gif", "/photos/9_SECRET_.jpg",
    "/photos/9_SECRET_m", "/avatars/0.png", "/avatars/25.png", "/avatars/3_x.png",
    "/photos/../../etc/passwd", "/photos/%2e%2e/secret", "/nothing", "/users.json/x",
  ])
  func pathsOutsideWhatIsServedAre404(uri: String) async throws {
    try await withRouter { client, routes in
      let secret = GeneratedImages.secret(id: 9, seed: routes.catalog.seed)
      let response = try await client.execute(
        uri: uri.replacingOccurrences(of: "SECRET", with: secret), method: .get)
      #expect(response.status == .notFound)
    }
  }

  @Test func onlyGetAndHeadAreServed() async throws {
    try await withRouter { client, _ in
      for method in [HTTPRequest.Method.post, .put, .delete] {
        let response = try await client.execute(
          uri: "/users.json", method: method, body: ByteBuffer(string: "x"))
        #expect(response.status == .methodNotAllowed)
        #expect(response.headers[.allow] == "GET, HEAD")
      }
    }
  }

  @Test func overlongTargetsAreRefused() async throws {
    try await withRouter { client, _ in
      let uri = Self.feed + "&tags=" + String(repeating: "a", count: 3_000)
      let response = try await client.execute(uri: uri, method: .get)
      #expect(response.status == .uriTooLong)
    }
  }

  @Test func indexNamesTheRoutes() async throws {
    try await withRouter { client, _ in
      let response = try await client.execute(uri: "/", method: .get)
      #expect(response.status == .ok)
      #expect(response.text.contains("/services/feeds/photos_public.gne"))
      #expect(response.text.contains("/users.json"))
    }
  }
}
