import Testing

@testable import tessera

struct TextWrapTests {
  @Test func linesNeverExceedTheWidthAndKeepEveryWord() {
    var random = SplitMix(seed: 42)
    let words = ["a", "harbour", "morning", "#architecture", "x", "supercalifragilistic"]
    for width in [1, 3, 7, 12, 30] {
      for _ in 0..<50 {
        let text = (0..<Int.random(in: 0..<20, using: &random))
          .map { _ in words.randomElement(using: &random)! }.joined(separator: " ")
        let lines = TextWrap.lines(text, width: width)
        #expect(lines.allSatisfy { $0.count <= width }, "width \(width): \(lines)")
        #expect(
          lines.joined().replacingOccurrences(of: " ", with: "")
            == text.replacingOccurrences(of: " ", with: ""))
      }
    }
  }

  @Test func newlinesStartNewLines() {
    #expect(TextWrap.lines("one two\nthree", width: 20) == ["one two", "three"])
  }

  @Test func truncateAddsAnEllipsisOnlyWhenCut() {
    #expect(TextWrap.truncate("harbour", width: 7) == "harbour")
    #expect(TextWrap.truncate("harbour", width: 5) == "harb…")
    #expect(TextWrap.truncate("harbour", width: 0) == "")
  }
}

/// A seeded generator, so a failing case reproduces.
struct SplitMix: RandomNumberGenerator {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
