import Foundation
import TesseraServer
import TesseraTestSupport
import TesseraUtilities
import Testing

/// `tessera serve` behind nginx's `proxy_cache`, set up as README says: the feed's links name
/// nginx (the origin trusts it as a proxy), images come from the cache (MISS, then HIT;
/// 304 to a conditional request), and a second gallery launched through nginx sends the
/// origin no image request at all — the origin's own count of image answers says so.
@Suite(.serialized, .timeLimit(.minutes(6)))
struct BehindCacheEndToEndTests {
  static let feedPath = "services/feeds/photos_public.gne?format=json&nojsoncallback=1"

  /// Runs `body` with an origin (trusting loopback proxies, as
  /// `tessera serve --trusted-proxy 127.0.0.1` does) and nginx in front; both stopped after,
  /// pass or fail.
  func withOriginBehindNginx(
    _ body: (FeedServer, URL, CachingProxy) async throws -> Void
  ) async throws {
    let origin = FeedServer(
      configuration: .init(
        itemCount: 400, userCount: 20, seed: 11, escapesApostrophes: false,
        links: LinkOrigin(trustedProxies: [try IPAddressRange(parsing: "127.0.0.1")])))
    let originURL = try await origin.start()
    do {
      let proxy = try await CachingProxy(origin: originURL)
      defer { proxy.stop() }
      try await body(origin, originURL, proxy)
    } catch {
      await origin.stop()
      throw error
    }
    await origin.stop()
  }

  /// Image answers the origin has given (encoded anew or from its memory), 304s included.
  static func originImageRequests(_ origin: FeedServer) async -> Int {
    let counts = await origin.imageStatistics()
    return counts.generated + counts.cacheHits
  }

  /// Every absolute URL in a feed body, slashes unescaped.
  static func urls(in body: Data) -> [String] {
    let text = String(decoding: body, as: UTF8.self).replacingOccurrences(of: "\\/", with: "/")
    return text.matches(of: /https?:\/\/[^"\\ <>]+/).map { String($0.output) }
  }

  @Test func theFeedNamesNginxAndImagesComeFromItsCache() async throws {
    try await withOriginBehindNginx { origin, originURL, proxy in
      let feed = try await TestHTTP.get(
        try #require(URL(string: Self.feedPath, relativeTo: proxy.baseURL)))
      #expect(feed.status == 200)
      let urls = Self.urls(in: feed.body)
      let front = proxy.baseURL.absoluteString
      #expect(urls.count > 20)
      #expect(urls.allSatisfy { $0.hasPrefix(front) }, "not through nginx: \(urls.prefix(3))")
      // Straight from the origin, the same feed still names the origin.
      let direct = try await TestHTTP.get(
        try #require(URL(string: Self.feedPath, relativeTo: originURL)))
      #expect(Self.urls(in: direct.body).allSatisfy { $0.hasPrefix(originURL.absoluteString) })

      let media = try #require(urls.first { $0.contains("/photos/") && $0.hasSuffix("_m.jpg") })
      let image = try #require(URL(string: media))
      let before = await Self.originImageRequests(origin)
      let first = try await TestHTTP.get(image)
      let second = try await TestHTTP.get(image)
      #expect(first.status == 200 && second.status == 200)
      #expect(first.header("X-Cache-Status") == "MISS")
      #expect(second.header("X-Cache-Status") == "HIT")
      #expect(first.body == second.body)
      let etag = try #require(second.header("ETag"))
      let conditional = try await TestHTTP.get(image, headers: ["If-None-Match": etag])
      #expect(conditional.status == 304)
      #expect(conditional.header("X-Cache-Status") == "HIT")
      // One MISS reached the origin; the HIT and the 304 did not.
      #expect(await Self.originImageRequests(origin) == before + 1)
      // The origin answers the same validator with 304 itself, as nginx's revalidation asks.
      let revalidation = try await TestHTTP.get(
        try #require(URL(string: image.path, relativeTo: originURL)),
        headers: ["If-None-Match": etag])
      #expect(revalidation.status == 304)
      let imageLines = try proxy.accesses().filter { $0.target.hasPrefix("/photos/") }
      #expect(imageLines.map(\.cacheStatus) == ["MISS", "HIT", "HIT"])
      #expect(imageLines.map(\.status) == [200, 200, 304])
    }
  }

  @Test func aSecondGalleryThroughNginxSendsNoImageRequestToTheOrigin() async throws {
    try await withOriginBehindNginx { origin, _, proxy in
      let feed = try #require(URL(string: Self.feedPath, relativeTo: proxy.baseURL))
        .absoluteString
      let firstScreen = try await BlockingWork.run { try Self.launchGallery(feed: feed) }
      GalleryEndToEndTests.expectEveryTileCorrect(firstScreen, .tiles, minimum: 8)
      let afterFirst = await Self.originImageRequests(origin)
      let firstLines = try proxy.accesses()
      #expect(afterFirst > 0)

      let secondScreen = try await BlockingWork.run { try Self.launchGallery(feed: feed) }
      GalleryEndToEndTests.expectEveryTileCorrect(secondScreen, .tiles, minimum: 8)
      let secondLines = try proxy.accesses().dropFirst(firstLines.count)
      let images = secondLines.filter {
        $0.target.hasPrefix("/photos/") || $0.target.hasPrefix("/avatars/")
      }
      #expect(!images.isEmpty, "the second gallery loaded no image through nginx")
      #expect(
        images.allSatisfy { $0.cacheStatus == "HIT" },
        "second launch: \(images.filter { $0.cacheStatus != "HIT" })")
      #expect(await Self.originImageRequests(origin) == afterFirst)
      let misses = firstLines.filter { $0.cacheStatus == "MISS" && $0.target.contains("/photos/") }
      print(
        "behind nginx: first gallery \(misses.count) image misses, origin image answers "
          + "\(afterFirst); second gallery \(images.count) image hits, origin image answers "
          + "\(await Self.originImageRequests(origin) - afterFirst)")
    }
  }

  /// A gallery on the feed, with no disk cache of its own, until its first screen of images
  /// has settled; the settled screen. The gallery and its tmux are gone when this returns.
  static func launchGallery(feed: String) throws -> String {
    let tmux = try Tmux(
      command: [
        GalleryBinary.path, "gallery", "--graphics", "blocks", "--no-disk-cache", "--feed", feed,
      ],
      columns: GalleryEndToEndTests.columns, rows: GalleryEndToEndTests.rows)
    return try tmux.waitFor("the first screen of images", GalleryEndToEndTests.settled)
  }
}
