import Testing

@testable import TesseraUtilities

@Suite struct SharedStringsTests {
  /// Where a string's bytes live: equal for two strings that share one storage.
  func storage(_ text: String) -> UnsafeRawPointer? {
    var copy = text
    return copy.withUTF8 { UnsafeRawPointer($0.baseAddress) }
  }

  /// A string over 15 bytes made afresh, as parsing makes it (never a literal's storage).
  func parsed(_ text: String) -> String { String(decoding: Array(text.utf8), as: UTF8.self) }

  @Test func equalStringsComeBackAsTheFirstOnesStorage() {
    var strings = SharedStrings()
    let first = parsed("Canon EOS 5D Mark IV")
    let second = parsed("Canon EOS 5D Mark IV")
    #expect(storage(first) != storage(second))
    let kept = strings.shared(first)
    let shared = strings.shared(second)
    #expect(shared == second)
    #expect(storage(shared) == storage(kept))
    #expect(storage(kept) == storage(first))
    #expect(strings.count == 1)
  }

  @Test func pastItsLimitAStringComesBackAsGiven() {
    var strings = SharedStrings(limit: 2)
    for model in ["Pixel 8 Pro long name", "iPhone 15 Pro long name"] {
      _ = strings.shared(parsed(model))
    }
    let third = parsed("Nikon Z 6 long model name")
    let again = strings.shared(third)
    #expect(storage(again) == storage(third))
    #expect(strings.count == 2)
    let later = parsed("Nikon Z 6 long model name")
    #expect(storage(strings.shared(later)) == storage(later))
    // The first two are still shared.
    let repeated = parsed("Pixel 8 Pro long name")
    #expect(storage(strings.shared(repeated)) != storage(repeated))
  }

  @Test func aNegativeLimitHoldsNothing() {
    var strings = SharedStrings(limit: -5)
    _ = strings.shared(parsed("Canon EOS 5D Mark IV"))
    #expect(strings.limit == 0)
    #expect(strings.count == 0)
  }
}
