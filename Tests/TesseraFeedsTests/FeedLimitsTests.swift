import Foundation
import TesseraPhotoFormats
import TesseraPhotoLibrary
import Testing

@testable import TesseraFeeds

/// Numbers a feed or a file claims are checked against `FeedLimits` before anything computes
/// with them: absurd ones become "unknown", never a trap.
@Suite(.timeLimit(.minutes(1))) struct FeedLimitsTests {
  /// A one-item Flickr feed whose description claims `width`×`height`.
  static func feed(width: String, height: String) -> Data {
    let description =
      #"<p><a href=\"https:\/\/www.flickr.com\/photos\/1@N00\/42\/\"><img src=\"x\" width=\"\#(width)\" height=\"\#(height)\" \/><\/a><\/p>"#
    return Data(
      #"""
      {"items": [{
        "title": "t", "link": "https:\/\/www.flickr.com\/photos\/1@N00\/42\/",
        "media": {"m": "https:\/\/live.staticflickr.com\/1\/42_abcdef_m.jpg"},
        "description": "\#(description)"
      }]}
      """#.utf8)
  }

  @Test(arguments: [
    ("4000000000", "1"), ("99999999999999999999999999", "1"), ("1", "99999999999999999999"),
    ("65536", "65536"), ("0", "100"), ("-5", "10"), ("NaN", "1"), ("inf", "1"), ("1e9", "1"),
    ("1", "65535"), ("1000", "1"), ("101", "1"), ("", "10"), ("12.5", "10"), ("40px", "10"),
  ])
  func absurdClaimedSizesBecomeUnknown(width: String, height: String) throws {
    let photo = try #require(
      try FlickrFeedParser.parse(Self.feed(width: width, height: height)).items.first)
    #expect(photo.mediaPixelSize == nil)
    #expect(photo.aspectRatio == nil)
    #expect(PhotoViewModel(photo: photo).aspectRatio == nil)
  }

  @Test(arguments: [
    ("240", "160", 240, 160), ("100", "1", 100, 1), ("1", "100", 1, 100),
    ("65535", "65535", 65_535, 65_535), ("00640", "480", 640, 480),
  ])
  func sizesWithinTheLimitsAreKept(width: String, height: String, w: Int, h: Int) throws {
    let photo = try #require(
      try FlickrFeedParser.parse(Self.feed(width: width, height: height)).items.first)
    #expect(photo.mediaPixelSize == PixelSize(width: w, height: h))
    #expect(photo.aspectRatio == Double(w) / Double(h))
  }

  @Test func aSizeMadeInCodeOutsideTheLimitsHasNoAspect() throws {
    #expect(PixelSize(width: Int.max, height: 1).aspectRatioWithinFeedLimits == nil)
    #expect(PixelSize(width: 1, height: Int.max).aspectRatioWithinFeedLimits == nil)
    #expect(PixelSize(width: -3, height: -4).aspectRatioWithinFeedLimits == nil)
    #expect(PixelSize(width: 65_535, height: 655).aspectRatioWithinFeedLimits == nil)
    #expect(PixelSize(width: 65_500, height: 655).aspectRatioWithinFeedLimits == 100)
    // A photo made in code with such a size gives no aspect to a layout either.
    let url = try #require(URL(string: "https://example.com/p.jpg"))
    let photo = Photo(
      id: "p", title: "", link: url, mediaURL: url,
      mediaPixelSize: PixelSize(width: Int.max, height: 1))
    #expect(photo.aspectRatio == nil)
    #expect(PhotoViewModel(photo: photo).aspectRatio == nil)
    #expect(PixelSize(validatingWidth: 0, height: 0) == nil)
    #expect(PixelSize(validatingWidth: 300, height: 200) == PixelSize(width: 300, height: 200))
  }

  /// Any aspect, however forged, gives a size within the variant's edge.
  @Test(arguments: [
    0, -1, 1e-300, 1e300, Double.nan, Double.infinity, -Double.infinity,
    Double.leastNonzeroMagnitude, Double.greatestFiniteMagnitude, 1e-3, 1e3,
  ])
  func flickrSizesSurviveAnyAspect(aspect: Double) {
    for size in FlickrSize.allCases {
      let pixels = size.pixelSize(aspect: aspect)
      #expect((1...size.longestEdge).contains(pixels.width), "\(size) \(aspect)")
      #expect((1...size.longestEdge).contains(pixels.height), "\(size) \(aspect)")
    }
    _ = FlickrSize.covering(width: Int.max, height: Int.max, aspect: aspect)
    _ = FlickrSize.covering(width: Int.min, height: 0, aspect: aspect, cropToSquare: true)
  }

  /// Headers claiming sides past 65,535 (PNG allows 2³¹) or a 1:65,535 strip are unknown.
  @Test func forgedHeadersGiveNoSize() {
    var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]
    png += Array("IHDR".utf8) + [0x7F, 0xFF, 0xFF, 0xFF, 0, 0, 0, 1]
    #expect(ImageHeader.pixelSize(png) == nil)
    let gifStrip: [UInt8] = Array("GIF89a".utf8) + [0x01, 0x00, 0xFF, 0xFF]
    #expect(ImageHeader.pixelSize(gifStrip) == nil)
    let gifSquare: [UInt8] = Array("GIF89a".utf8) + [0xFF, 0xFF, 0xFF, 0xFF]
    #expect(ImageHeader.pixelSize(gifSquare) == PixelSize(width: 65_535, height: 65_535))
  }

  /// `page`/`pages` must be whole numbers within `FeedLimits.maxPage`; `page + 1` never
  /// overflows and a fraction never rounds into a page.
  @Test(
    arguments: [
      ("1", "3", 2), ("2.5", "9", nil), ("1e300", "1e301", nil), ("-4", "2", nil),
      ("9223372036854775806", "9223372036854775807", nil), ("999999", "1000000", 1_000_000),
      ("\"1\"", "3", nil), ("3", "3", nil),
    ] as [(String, String, Int?)])
  func pageNumbersFromTheFeedAreChecked(page: String, pages: String, next: Int?) throws {
    let object = try JSONSerialization.jsonObject(
      with: Data(#"{"page": \#(page), "pages": \#(pages)}"#.utf8))
    let root = try #require(object as? [String: Any])
    #expect(FlickrFeedParser.nextPage(root) == next)
  }
}
