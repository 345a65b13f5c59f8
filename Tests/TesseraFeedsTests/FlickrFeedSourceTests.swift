import Foundation
import Testing

@testable import TesseraFeeds

/// The page requests a feed address becomes: Flickr's JSON form, with the address's own query.
struct FlickrFeedSourceTests {
  static func query(_ url: URL?) -> [String: String] {
    let items = url.flatMap { URLComponents(url: $0, resolvingAgainstBaseURL: false) }?.queryItems
    return Dictionary(
      (items ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { _, last in last })
  }

  @Test func theAddressesOwnTagsAndPageSizeStand() throws {
    let feed = try #require(
      URL(
        string: "https://example.com/services/feeds/photos_public.gne?tags=cats&per_page=50&lang=de"
      ))
    let query = Self.query(FlickrFeedSource(feedURL: feed).url(page: 2))
    #expect(query["tags"] == "cats")
    #expect(query["per_page"] == "50")
    #expect(query["lang"] == "de")
    #expect(query["page"] == "2")
    #expect(query["format"] == "json" && query["nojsoncallback"] == "1")
  }

  @Test func theSourcesOwnTagsAndPageSizeWin() throws {
    let feed = try #require(
      URL(string: "https://example.com/feed?tags=cats&per_page=50&format=xml"))
    let source = FlickrFeedSource(feedURL: feed, tags: ["dogs", "parks"], perPage: 20)
    let query = Self.query(source.url(page: 1))
    #expect(query["tags"] == "dogs,parks")
    #expect(query["per_page"] == "20")
    #expect(query["format"] == "json")
    #expect(query["page"] == nil)
  }
}
