import Foundation
import Testing

@testable import TesseraFeeds

/// A network feed may only point to http(s) addresses with a host: every other scheme makes its
/// entry skipped, with the reason, and the rest of the feed still shows.
@Suite(.timeLimit(.minutes(1))) struct SchemeTests {
  static let good = "https://live.staticflickr.com/1/42_abcdef_m.jpg"
  static let page = "https://www.flickr.com/photos/1@N00/42/"

  static func feed(media: String, link: String = page) -> Data {
    let entry = { (media: String, link: String) in
      #"{"title": "t", "link": "\#(link)", "media": {"m": "\#(media)"}}"#
    }
    let entries = [
      entry(good, page), entry(media, link),
    ]
    return Data(#"{"items": [\#(entries.joined(separator: ","))]}"#.utf8)
  }

  static let hostile = [
    "file:///etc/passwd", "FILE:///home/me/.ssh/id_rsa", "data:image/png;base64,iVBORw0KGgo=",
    "javascript:alert(1)", "ftp://example.com/1_abc.jpg", "gopher://example.com/1_abc.jpg",
    "http:///1_abc.jpg", "https:1_abc.jpg",
  ]

  @Test(arguments: hostile)
  func mediaOutsideHTTPIsSkippedWithTheReason(media: String) throws {
    let page = try FlickrFeedParser.parse(Self.feed(media: media))
    #expect(page.items.map(\.mediaURL.absoluteString) == [Self.good])
    let skipped = try #require(page.skipped.first)
    #expect(skipped.index == 1)
    #expect(skipped.field == "media.m")
    guard case .invalid(let why) = skipped.reason else {
      Issue.record("expected an invalid reason, got \(skipped.reason)")
      return
    }
    #expect(why.contains("only http and https") || why.contains("no host"))
  }

  @Test(arguments: hostile)
  func linksOutsideHTTPAreSkipped(link: String) throws {
    let page = try FlickrFeedParser.parse(Self.feed(media: Self.good, link: link))
    #expect(page.items.count == 1)
    #expect(page.skipped.map(\.field) == ["link"])
  }

  @Test func theReasonNamesTheScheme() throws {
    let page = try FlickrFeedParser.parse(Self.feed(media: "file:///etc/passwd"))
    #expect(
      page.skipped.map(\.description) == [
        "item 1 field “media.m” is invalid: only http and https addresses are allowed, not “file:”"
      ])
  }

  @Test func schemesAreCaseInsensitive() throws {
    let page = try FlickrFeedParser.parse(
      Self.feed(media: "HTTPS://LIVE.staticflickr.com/1/43_abcdef_m.jpg"))
    #expect(page.items.count == 2)
    #expect(page.skipped.isEmpty)
  }

  @Test func aFeedOfOnlyHostileEntriesFailsWithTheFirstReason() {
    let body = Data(
      #"{"items": [{"title": "", "link": "\#(Self.page)", "media": {"m": "file:///etc/passwd"}}]}"#
        .utf8)
    #expect(
      throws: FeedError.wrongShape(
        field: "media.m", item: 0,
        expected: "only http and https addresses are allowed, not “file:”")
    ) { try FlickrFeedParser.parse(body) }
  }

  @Test(arguments: hostile)
  func avatarsOutsideHTTPDropTheirUser(avatar: String) throws {
    let body = #"""
      [{"avatar": "https://example.com/a/1.png", "username": "ada", "role": "User"},
       {"avatar": "\#(avatar)", "username": "mallory", "role": "Admin"}]
      """#
    let page = try UsersParser.parse(Data(body.utf8))
    #expect(page.items.map(\.username) == ["ada"])
    #expect(page.skipped.map(\.field) == ["avatar"])
    #expect(page.skipped.map(\.index) == [1])
  }

  @Test func aRelativeAvatarStillLeavesThePlaceholder() throws {
    let body = #"[{"avatar": "avatars/1.png", "username": "ada"}]"#
    let page = try UsersParser.parse(Data(body.utf8))
    #expect(page.items.map(\.username) == ["ada"])
    #expect(page.items.first?.avatarURL == nil)
  }

  @Test func theFetcherRefusesAnythingButHTTP() async throws {
    let fetcher = HTTPFetcher()
    for text in [
      "file:///etc/passwd", "data:text/plain,hello", "ftp://example.com/feed", "http:///x",
    ] {
      let url = try #require(URL(string: text))
      await #expect(throws: FeedError.invalidURL(url.absoluteString)) {
        try await fetcher.get(url)
      }
    }
  }
}
