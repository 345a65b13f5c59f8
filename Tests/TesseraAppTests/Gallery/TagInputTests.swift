import Testing

@testable import TesseraGallery

/// The tag prompt reads what is typed as tags to add and remove, and Tab completes the word
/// being typed from the library's tags.
@Suite struct TagInputTests {
  static let vocabulary = ["Ann", "holiday", "People/Ann", "wedding", "Wedding cake"]

  @Test func commasSeparateTagsAndAMinusRemovesOne() {
    let input = TagInput(
      typed: " wedding, People/Ann ,-draft, +beach, − old, wedding,,", vocabulary: [])
    #expect(input.change.add == ["wedding", "People/Ann", "beach"])
    #expect(input.change.remove == ["draft", "old"])
  }

  @Test func tabCompletesTheWordBeingTypedKeepingItsSign() {
    var input = TagInput(typed: "wed", vocabulary: Self.vocabulary)
    #expect(input.completion == "wedding")
    input.complete()
    #expect(input.typed == "wedding")
    // The word typed whole: the next tag that starts with it.
    #expect(input.completion == "Wedding cake")
    input.typed = "wedding, -peo"
    input.complete()
    #expect(input.typed == "wedding, -People/Ann")
    #expect(input.change.remove == ["People/Ann"])
    // Nothing to complete: Tab changes nothing.
    input.typed = "zebra"
    input.complete()
    #expect(input.typed == "zebra" && input.completion == nil)
  }

  @Test func thePromptSaysWhatEnterDoes() {
    let input = TagInput(typed: "wed, -Ann", vocabulary: Self.vocabulary)
    #expect(input.prompt(photos: 2) == "#wed, -Ann▏ · Enter: +wed −Ann on 2 photos · Esc cancels")
    let started = TagInput(typed: "hol", vocabulary: Self.vocabulary)
    #expect(started.prompt(photos: 1).contains("Tab: holiday · Enter: +hol on 1 photo"))
  }
}
