import Foundation
import Testing

@testable import TesseraFeeds

@Suite(.timeLimit(.minutes(1))) struct FlickrSizeTests {
  func photo(_ media: String, size: PixelSize? = PixelSize(width: 240, height: 160)) throws -> Photo
  {
    let url = try #require(URL(string: media))
    return Photo(
      id: "1", title: "", link: url, mediaURL: url, mediaPixelSize: size,
      sizing: FlickrFileName(url.lastPathComponent) == nil ? .fixed : .flickr)
  }

  @Test func smallestSizeCoveringTheCellIsChosen() throws {
    let wide = try photo("https://live.staticflickr.com/1/53712345678_0a1b2c3d4e_m.jpg")
    func suffix(_ w: Int, _ h: Int) -> String { wide.mediaURL(covering: w, h).lastPathComponent }
    #expect(suffix(90, 60) == "53712345678_0a1b2c3d4e_t.jpg")
    #expect(suffix(240, 160) == "53712345678_0a1b2c3d4e_m.jpg")
    #expect(suffix(241, 100) == "53712345678_0a1b2c3d4e_n.jpg")
    // A 3:2 image must be 750 wide to be 500 tall: 800.
    #expect(suffix(100, 500) == "53712345678_0a1b2c3d4e_c.jpg")
    #expect(suffix(450, 300) == "53712345678_0a1b2c3d4e.jpg")
    #expect(suffix(640, 400) == "53712345678_0a1b2c3d4e_z.jpg")
    #expect(suffix(5_000, 5_000) == "53712345678_0a1b2c3d4e_b.jpg")
  }

  @Test func tallImagesNeedTheirHeightCovered() throws {
    let tall = try photo(
      "https://x.test/p/42_abcdef_m.png", size: PixelSize(width: 120, height: 240))
    #expect(tall.mediaURL(covering: 100, 300).lastPathComponent == "42_abcdef_n.png")
    #expect(tall.mediaURL(covering: 300, 100).lastPathComponent == "42_abcdef_z.png")
  }

  @Test func unknownAspectCoversTheLongestSide() throws {
    let unknown = try photo("https://x.test/p/42_abcdef_m.jpg", size: nil)
    #expect(unknown.mediaURL(covering: 300, 120).lastPathComponent == "42_abcdef_n.jpg")
    #expect(FlickrSize.covering(width: 0, height: 0, aspect: nil) == .thumbnail100)
  }

  @Test func squaresOnlyWhenTheViewCrops() throws {
    let wide = try photo("https://x.test/p/42_abcdef_m.jpg")
    #expect(
      wide.mediaURL(covering: 64, 64, cropToSquare: true).lastPathComponent == "42_abcdef_s.jpg")
    #expect(
      wide.mediaURL(covering: 150, 150, cropToSquare: true).lastPathComponent == "42_abcdef_q.jpg")
    #expect(wide.mediaURL(covering: 64, 64).lastPathComponent == "42_abcdef_t.jpg")
  }

  @Test func nonFlickrURLsAreLeftAlone() throws {
    let local = try photo("file:///home/me/Pictures/holiday_2024.jpg")
    #expect(local.sizing == .fixed)
    #expect(local.mediaURL(covering: 1_000, 1_000) == local.mediaURL)
    #expect(FlickrFileName("53712345678_0a1b2c3d4e_x.jpg") == nil)
    #expect(FlickrFileName("abc_0a1b.jpg") == nil)
    #expect(FlickrFileName("1_zz.jpg") == nil)
    #expect(FlickrFileName("1_ab.jpg")?.size == .medium500)
  }

  @Test func ladderIsOrdered() {
    let edges = FlickrSize.allCases.filter { !$0.isSquare }.map(\.longestEdge)
    #expect(edges == edges.sorted())
    #expect(FlickrSize.small240 < FlickrSize.large1024)
    #expect(FlickrSize.medium640.pixelSize(aspect: 0.5) == PixelSize(width: 320, height: 640))
  }
}
