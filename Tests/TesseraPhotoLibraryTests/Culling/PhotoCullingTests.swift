import TesseraPhotoFormats
import Testing

@testable import TesseraPhotoLibrary

/// What a photo keeps of its sidecar's tags: keywords, then tag paths, each once, none a
/// facts file line could not hold, at most `maxTags`.
@Suite struct PhotoCullingTests {
  @Test func tagsAloneAreACullingAndPathsFollowKeywords() {
    let culling = PhotoCulling(
      XMPCulling(keywords: ["wedding", "Ann"], tagPaths: [["People", "Ann"], ["wedding"]]))
    #expect(culling?.tags == ["wedding", "Ann", "People/Ann"])
    #expect(culling?.rating == nil && culling?.label == nil)
    #expect(PhotoCulling(XMPCulling(title: "only a title")) == nil)
  }

  @Test func controlCharactersRepeatsAndTheSurplusAreLeftOut() {
    let many = (0..<100).map { "t\($0)" }
    #expect(PhotoCulling(tags: many).tags == Array(many.prefix(PhotoCulling.maxTags)))
    #expect(PhotoCulling(tags: ["a\nb", "", "tab\there", "ok", "ok", "\u{7F}"]).tags == ["ok"])
  }
}
