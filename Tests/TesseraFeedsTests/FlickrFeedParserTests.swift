import Foundation
import Testing

@testable import TesseraFeeds

@Suite(.timeLimit(.minutes(1))) struct FlickrFeedParserTests {
  func parse(_ text: String) throws(FeedError) -> FeedPage<Photo> {
    try FlickrFeedParser.parse(Data(text.utf8))
  }

  @Test func realFeedParsesEveryField() throws {
    let page = try parse(FeedCorpus.good)
    #expect(page.items.count == 3)
    #expect(page.skipped.isEmpty)
    #expect(page.nextPage == nil)
    let first = page.items[0]
    #expect(first.id == "53712345678")
    #expect(first.title == "Harbour at dusk")
    #expect(
      first.link.absoluteString == "https://www.flickr.com/photos/12345678@N00/53712345678/")
    #expect(
      first.mediaURL.absoluteString
        == "https://live.staticflickr.com/65535/53712345678_0a1b2c3d4e_m.jpg")
    #expect(first.dateTaken == Date(timeIntervalSince1970: 1_714_587_153))
    #expect(first.published == Date(timeIntervalSince1970: 1_714_587_601))
    #expect(first.author == "Ada L")
    #expect(first.authorID == "12345678@N00")
    #expect(first.tags == ["harbour", "dusk", "boats"])
    #expect(first.descriptionHTML.contains("<img src=\"https://live.staticflickr.com"))
    #expect(first.mediaPixelSize == PixelSize(width: 240, height: 160))
    #expect(first.sizing == .flickr)
  }

  @Test func quirksAreHandled() throws {
    let items = try parse(FeedCorpus.good).items
    #expect(items[1].title == "")
    #expect(items[1].tags == [])
    #expect(items[1].aspectRatio == 160.0 / 240.0)
    // Flickr's invalid `\'` escape.
    #expect(items[2].title == "Anna's garden")
    #expect(items[2].author == "Tim O'Neil")
    #expect(items[2].mediaPixelSize == nil)
  }

  @Test func jsonpWrapperIsRemoved() throws {
    #expect(try parse(FeedCorpus.jsonp).items.map(\.id) == parse(FeedCorpus.good).items.map(\.id))
    #expect(try parse(FeedCorpus.jsonp + ";").items.count == 3)
  }

  @Test func brokenItemsAreSkippedWithTheirReason() throws {
    let page = try parse(FeedCorpus.mixed)
    #expect(page.items.map(\.id) == ["1", "9", "10"])
    #expect(page.items[1].dateTaken == nil)
    #expect(page.items[2].title == "")
    #expect(
      page.skipped == [
        SkippedItem(index: 1, field: "media", reason: .missing),
        SkippedItem(index: 2, field: "media.m", reason: .missing),
        SkippedItem(index: 3, field: "media", reason: .wrongType(expected: "an object")),
        SkippedItem(index: 4, field: "title", reason: .wrongType(expected: "a string")),
        SkippedItem(index: 5, field: "link", reason: .invalid("not a URL")),
        SkippedItem(index: 6, field: "", reason: .wrongType(expected: "an object")),
        SkippedItem(index: 7, field: "media.m", reason: .missing),
      ])
    #expect(page.skipped[0].description == "item 1 field “media” is missing")
  }

  @Test(arguments: [
    ("", FeedError.notJSON(preview: "")),
    ("   \n ", .notJSON(preview: "")),
    (
      FeedCorpus.htmlErrorPage,
      .notJSON(preview: "<!DOCTYPE html> <html><head><title>502 Bad Gatew")
    ),
    (#"{"items": [ {"title": "cut"#, .notJSON(preview: #"{"items": [ {"title": "cut"#)),
    ("[1, 2]", .wrongShape(field: "", item: nil, expected: "a JSON object")),
    (#"{"title": "x"}"#, .wrongShape(field: "items", item: nil, expected: "an array")),
    (#"{"items": {"0": {}}}"#, .wrongShape(field: "items", item: nil, expected: "an array")),
    (#"{"items": []}"#, .emptyFeed),
    (
      FeedCorpus.feed(items: [FeedCorpus.item(id: 1, replacing: "media")]),
      .wrongShape(field: "media", item: 0, expected: "a value")
    ),
    (
      FeedCorpus.feed(items: [FeedCorpus.item(id: 1, replacing: "link", with: "7")]),
      .wrongShape(field: "link", item: 0, expected: "a string")
    ),
  ])
  func badFeedsGiveTheirSpecificError(text: String, expected: FeedError) {
    #expect(throws: expected) { try parse(text) }
  }

  @Test func errorsReadAsSentences() {
    #expect(
      FeedError.badStatus(500).message(retrieving: "photos")
        == "Can't retrieve photos: the server answered 500")
    #expect(
      FeedError.wrongShape(field: "media.m", item: 3, expected: "a string").description
        == "item 3 has no usable “media.m” (expected a string)")
    #expect(
      FeedError.wrongShape(field: "items", item: nil, expected: "an array").description
        == "the answer has no usable “items” (expected an array)")
    #expect(
      FeedError.emptyFeed.message(retrieving: "contacts")
        == "Can't retrieve contacts: the feed is empty")
    #expect(FeedError.timedOut.description == "the server did not answer in time")
  }

  @Test func pagingExtensionGivesTheNextPage() throws {
    let text = #"{"page": 2, "pages": 3, "items": ["# + FeedCorpus.item(id: 1) + "]}"
    #expect(try parse(text).nextPage == 3)
    let last = #"{"page": 3, "pages": 3, "items": ["# + FeedCorpus.item(id: 1) + "]}"
    #expect(try parse(last).nextPage == nil)
  }

  @Test func photoViewModelComputesDisplayValuesOnce() throws {
    let items = try parse(FeedCorpus.good).items.map(PhotoViewModel.init)
    #expect(items[0].title == "Harbour at dusk")
    #expect(items[0].author == "Ada L")
    #expect(items[0].dateText == "1 May 2024")
    #expect(items[0].tagsText == "#harbour #dusk #boats")
    #expect(items[0].summary == "Boats & gulls.")
    #expect(items[0].aspectRatio == 1.5)
    #expect(items[1].title == "Untitled")
    #expect(items[1].tagsText == "")
    #expect(items[1].dateText == "30 Apr 2024")
  }
}
