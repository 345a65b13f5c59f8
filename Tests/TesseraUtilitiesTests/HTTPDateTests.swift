import Foundation
import Testing

@testable import TesseraUtilities

@Suite struct HTTPDateTests {
  static let rfcExample = Date(timeIntervalSince1970: 784_111_777)
  static let now = Date(timeIntervalSince1970: 1_795_000_000)  // 2026-11-18

  /// RFC 9110 §5.6.7's example instant in each of the three formats a recipient must read.
  @Test(arguments: [
    "Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994",
    "sun, 06 NOV 1994 08:49:37 GMT",
  ])
  func theThreeFormatsNameOneInstant(text: String) {
    #expect(HTTPDate.parse(text, now: Self.now) == Self.rfcExample)
  }

  @Test func datesAreWrittenAsIMFFixdate() {
    #expect(HTTPDate.format(Self.rfcExample) == "Sun, 06 Nov 1994 08:49:37 GMT")
    #expect(
      HTTPDate.format(Date(timeIntervalSince1970: 1_717_243_200.9))
        == "Sat, 01 Jun 2024 12:00:00 GMT")
  }

  /// Foundation's Gregorian calendar is the independent witness for the arithmetic: seeded
  /// instants from 1583 to 9999 are written with its fields and read back to themselves.
  /// (Before October 1582 Foundation's calendar is Julian; HTTP's is proleptic Gregorian,
  /// witnessed by Python's `datetime` in `earlyYearsAreProlepticGregorian`.)
  @Test func instantsAcrossTheYearsMatchTheCalendarAndRoundTrip() throws {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = try #require(TimeZone(secondsFromGMT: 0))
    let first = -12_212_553_600  // 1583-01-01T00:00:00Z
    let last = 253_402_300_799  // 9999-12-31T23:59:59Z
    var random = SplitMix64(seed: 11)
    for _ in 0..<2_000 {
      let date = Date(timeIntervalSince1970: Double(Int.random(in: first...last, using: &random)))
      let text = HTTPDate.format(date)
      let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
      let year = try #require(c.year)
      let expected =
        String(format: "%02d ", c.day ?? 0)
        + ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"][
          (c.month ?? 1) - 1]
        + String(
          format: " %04d %02d:%02d:%02d GMT", year, c.hour ?? 0, c.minute ?? 0, c.second ?? 0)
      #expect(text.dropFirst(5) == expected[...], "\(date.timeIntervalSince1970)")
      #expect(HTTPDate.parse(text, now: Self.now) == date, "\(text)")
    }
  }

  @Test(arguments: [
    (-30_419_469_401, "Fri, 17 Jan 1006 19:23:19 GMT"),
    (-62_035_396_800, "Fri, 05 Mar 0004 17:20:00 GMT"),
    (-12_212_553_601, "Fri, 31 Dec 1582 23:59:59 GMT"),
  ])
  func earlyYearsAreProlepticGregorian(seconds: Int, text: String) {
    let date = Date(timeIntervalSince1970: Double(seconds))
    #expect(HTTPDate.format(date) == text)
    #expect(HTTPDate.parse(text, now: Self.now) == date)
  }

  @Test func dayNamesFollowTheCalendar() {
    #expect(HTTPDate.format(Date(timeIntervalSince1970: 0)) == "Thu, 01 Jan 1970 00:00:00 GMT")
    #expect(HTTPDate.format(Date(timeIntervalSince1970: -1)) == "Wed, 31 Dec 1969 23:59:59 GMT")
    #expect(
      HTTPDate.format(Date(timeIntervalSince1970: 951_782_400)) == "Tue, 29 Feb 2000 00:00:00 GMT")
  }

  /// Whatever the date, the text is a date HTTP can carry: years clamp into 0001…9999.
  @Test(arguments: [
    (1e300, "Fri, 31 Dec 9999 23:59:59 GMT"), (-1e300, "Mon, 01 Jan 0001 00:00:00 GMT"),
    (Double.nan, "Mon, 01 Jan 0001 00:00:00 GMT"), (.infinity, "Fri, 31 Dec 9999 23:59:59 GMT"),
  ])
  func datesBeyondFourDigitYearsAreClamped(seconds: Double, text: String) {
    #expect(HTTPDate.format(Date(timeIntervalSince1970: seconds)) == text)
  }

  @Test func aLeapSecondIsTheNextMinutesFirst() {
    #expect(
      HTTPDate.parse("Sat, 31 Dec 2016 23:59:60 GMT", now: Self.now)
        == HTTPDate.parse("Sun, 01 Jan 2017 00:00:00 GMT", now: Self.now))
  }

  /// RFC 850's two-digit years are read within 49 years before `now` and 50 after.
  @Test(arguments: [("94", 1994), ("76", 2076), ("77", 1977), ("26", 2026), ("00", 2000)])
  func twoDigitYearsAreTheNearestOnes(digits: String, year: Int) throws {
    let date = try #require(
      HTTPDate.parse("Monday, 01-Jan-\(digits) 00:00:00 GMT", now: Self.now))
    #expect(HTTPDate.format(date).contains(" \(year) "))
  }

  /// Text a server or a client may send that is not a date: nil, and nothing traps.
  @Test(arguments: [
    // What the fuzzer found: Foundation's DateFormatter trapped on it ("Incorrect range").
    "Tue, 14 Nov 2023\u{593}\u{FFFD}\u{FFFD}\u{FFFD}0 GMT",
    "Tue, 14 Nov 2023 \u{661}\u{662}:00:00 GMT",  // Arabic-Indic digits are not DIGIT
    "", "GMT", "Sun", "Sun,", "yesterday",
    "Sun, 06 Nov 1994 08:49:37", "Sun, 06 Nov 1994 08:49:37 UTC", "Sun, 06 Nov 1994 08:49:37 GMT ",
    " Sun, 06 Nov 1994 08:49:37 GMT", "Sun, 6 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 94 08:49:37 GMT",
    "Sun, 06 Foo 1994 08:49:37 GMT", "Funday, 06-Nov-94 08:49:37 GMT",
    "Sun, 29 Feb 2023 00:00:00 GMT", "Sun, 29 Feb 1900 00:00:00 GMT",
    "Sun, 31 Apr 2024 00:00:00 GMT",
    "Sun, 00 Jan 2024 00:00:00 GMT", "Sun, 01 Jan 0000 00:00:00 GMT",
    "Sun, 01 Jan 2024 24:00:00 GMT", "Sun, 01 Jan 2024 23:60:00 GMT",
    "Sun, 01 Jan 2024 23:59:61 GMT",
    "Sun, 01 Jan 2024 -1:00:00 GMT", "Sun Nov 6 08:49:37 1994", "Sun Nov  6 08:49:37 94",
    "Sat, 01 Jun 9223372036854775807 12:00:00 GMT",
    "Sun, 06 Nov 1994 08:49:37 GMT" + String(repeating: " ", count: 40),
  ])
  func textThatIsNotADateIsRefused(text: String) {
    #expect(HTTPDate.parse(text, now: Self.now) == nil)
  }

  @Test func leapDaysOfLeapYearsAreDates() {
    #expect(HTTPDate.parse("Thu, 29 Feb 2024 00:00:00 GMT", now: Self.now) != nil)
    #expect(HTTPDate.parse("Tue, 29 Feb 2000 00:00:00 GMT", now: Self.now) != nil)
  }
}
