import Testing

@testable import TesseraHTTP

struct ContentLengthTests {
  @Test func onlyPlainDigitsAreALength() {
    #expect(ContentLength.parse("1234") == 1234)
    #expect(ContentLength.parse(" 42 ") == 42)
    #expect(ContentLength.parse("-1") == nil)
    #expect(ContentLength.parse("+1") == nil)
    #expect(ContentLength.parse("1e9") == nil)
    #expect(ContentLength.parse("4 2") == nil)
    #expect(ContentLength.parse("") == nil)
  }

  @Test func aLengthPastIntMaxSaturates() {
    #expect(ContentLength.parse("99999999999999999999999") == .max)
  }
}
