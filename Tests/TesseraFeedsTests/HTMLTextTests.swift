import Testing

@testable import TesseraFeeds

@Suite(.timeLimit(.minutes(1))) struct HTMLTextTests {
  @Test func tagsGoEntitiesDecodeWhitespaceCollapses() {
    #expect(
      HTMLText.plainText("<p>Salt &amp; <b>pepper</b></p>\n\n<p>&lt;3 &#233;t&#xE9;&nbsp;!</p>")
        == "Salt & pepper <3 été !")
    #expect(
      HTMLText.decodingEntities("AT&T & &unknown; &#x110000;") == "AT&T & &unknown; &#x110000;")
  }

  @Test func summaryDropsFlickrsPreamble() {
    let html =
      #" <p><a href="x">Ada</a> posted a photo:</p> <p><img src="y" /></p> <p>Late light.</p>"#
    #expect(HTMLText.summary(html) == "Late light.")
    #expect(HTMLText.summary("<p>Just words</p>") == "Just words")
  }

  @Test func firstImageSize() {
    #expect(
      HTMLText.firstImageSize(#"<img src="a" width="240" height="180" />"#)
        == PixelSize(width: 240, height: 180))
    #expect(
      HTMLText.firstImageSize(#"<IMG width='10' height='20'>"#) == PixelSize(width: 10, height: 20))
    #expect(HTMLText.firstImageSize(#"<img src="a" width="0" height="180" />"#) == nil)
    #expect(HTMLText.firstImageSize("<p>no image</p>") == nil)
  }
}
