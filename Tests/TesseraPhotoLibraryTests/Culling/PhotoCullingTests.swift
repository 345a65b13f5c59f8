import TesseraPhotoFormats
import Testing

@testable import TesseraPhotoLibrary

/// What a photo keeps of its sidecar's tags and title: keywords, then tag paths, each once,
/// none a facts file line could not hold, at most `maxTags`; a title of one line.
@Suite struct PhotoCullingTests {
  @Test func tagsAloneAreACullingAndPathsFollowKeywords() {
    let culling = PhotoCulling(
      XMPCulling(keywords: ["wedding", "Ann"], tagPaths: [["People", "Ann"], ["wedding"]]))
    #expect(culling?.tags == ["wedding", "Ann", "People/Ann"])
    #expect(culling?.rating == nil && culling?.label == nil)
  }

  @Test func aTitleAloneIsACullingAndOneWithALineBreakIsLeftOut() {
    let titled = PhotoCulling(XMPCulling(title: "Pier at dusk"))
    #expect(titled?.title == "Pier at dusk" && titled?.tags == [] && titled?.rating == nil)
    #expect(PhotoCulling(XMPCulling(title: "two\nlines")) == nil)
    #expect(PhotoCulling(rating: 3, title: "a\tb").title == nil)
  }

  @Test func controlCharactersRepeatsAndTheSurplusAreLeftOut() {
    let many = (0..<100).map { "t\($0)" }
    #expect(PhotoCulling(tags: many).tags == Array(many.prefix(PhotoCulling.maxTags)))
    #expect(PhotoCulling(tags: ["a\nb", "", "tab\there", "ok", "ok", "\u{7F}"]).tags == ["ok"])
  }
}
