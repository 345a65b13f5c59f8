import Foundation

/// HTTP dates (RFC 9110 §5.6.7), read from their bytes and written without Foundation's
/// formatters.
///
/// A date header is outside input: an image server's `Expires` or `Last-Modified`, a client's
/// `If-Modified-Since`. `DateFormatter` traps on some non-ASCII text (fuzzing found
/// `Fatal error: Incorrect range` in Foundation), so no header reaches it. This parser reads
/// ASCII bytes, checks every field's range before any arithmetic, and computes the instant
/// from the proleptic Gregorian calendar, where no time zone can be wrong.
package enum HTTPDate {
  /// The years a date may name. Four digits; year 0 is not a Gregorian year.
  private static let years = 1...9_999

  /// Longer text is not a date: the longest valid one, RFC 850 with "Wednesday", is 37 bytes.
  private static let maxBytes = 64

  /// The instant `text` names, or nil when it is not an HTTP date.
  ///
  /// All three formats a recipient must accept are read: IMF-fixdate
  /// (`Sun, 06 Nov 1994 08:49:37 GMT`), the obsolete RFC 850 form
  /// (`Sunday, 06-Nov-94 08:49:37 GMT`) and asctime (`Sun Nov  6 08:49:37 1994`). Day and
  /// month names are matched without regard to case; the day name is not checked against the
  /// date. A two-digit year is read as the year with those digits from 49 years before `now`
  /// to 50 after, as RFC 9110 asks. Second 60 (a leap second) is accepted.
  ///
  /// - Complexity: O(n) in the text's length; text longer than 64 bytes is refused unread.
  package static func parse(_ text: some StringProtocol, now: Date) -> Date? {
    guard text.utf8.count <= maxBytes else { return nil }
    var cursor = Cursor(Array(text.utf8))
    guard (cursor.word(in: dayNames) ?? cursor.word(in: longDayNames)) != nil else { return nil }
    let fields: Fields?
    if cursor.take(","), cursor.take(" ") {
      fields = fixdateOrRFC850(&cursor, now: now)
    } else if cursor.take(" ") {
      fields = asctime(&cursor)
    } else {
      fields = nil
    }
    guard let fields, cursor.isAtEnd else { return nil }
    return fields.instant
  }

  /// `date` as IMF-fixdate, the form HTTP sends. Dates before year 1 or after 9999 are
  /// written as the nearest second inside them; fractions of a second are dropped.
  ///
  /// - Complexity: O(1).
  package static func format(_ date: Date) -> String {
    let first = CivilCalendar.days(year: years.lowerBound, month: 1, day: 1) * secondsPerDay
    let last =
      CivilCalendar.days(year: years.upperBound, month: 12, day: 31) * secondsPerDay + 86_399
    let seconds = Int(clamping: date.timeIntervalSince1970.rounded(.down), to: first...last)
    // Whole days since 1970, rounded down also before it (`first` is a midnight).
    let days = (seconds - first) / secondsPerDay + first / secondsPerDay
    let time = seconds - days * secondsPerDay
    let (year, month, day) = CivilCalendar.date(days: days)
    let weekday = (days % 7 + 11) % 7  // 1970-01-01 was a Thursday (4).
    func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
    let yearText = String(repeating: "0", count: 4 - String(year).count) + String(year)
    return "\(dayNames[weekday]), \(two(day)) \(CivilCalendar.monthNames[month - 1]) \(yearText) "
      + "\(two(time / 3600)):\(two(time / 60 % 60)):\(two(time % 60)) GMT"
  }

  private static let secondsPerDay = 86_400
  private static let dayNames = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
  private static let longDayNames = [
    "Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday",
  ]

  /// After "day-name, ": `06 Nov 1994 08:49:37 GMT` or `06-Nov-94 08:49:37 GMT`.
  private static func fixdateOrRFC850(_ cursor: inout Cursor, now: Date) -> Fields? {
    guard let day = cursor.digits(2) else { return nil }
    let year: Int
    let month: Int
    if cursor.take(" ") {
      guard let name = cursor.word(in: CivilCalendar.monthNames), cursor.take(" "),
        let digits = cursor.digits(4)
      else { return nil }
      (month, year) = (name + 1, digits)
    } else if cursor.take("-") {
      guard let name = cursor.word(in: CivilCalendar.monthNames), cursor.take("-"),
        let digits = cursor.digits(2)
      else { return nil }
      (month, year) = (name + 1, fullYear(twoDigits: digits, now: now))
    } else {
      return nil
    }
    guard cursor.take(" "), let time = clock(&cursor), cursor.take(" "), cursor.take("GMT")
    else { return nil }
    return Fields(year: year, month: month, day: day, time: time)
  }

  /// After "day-name ": `Nov  6 08:49:37 1994` (a one-digit day is led by a space).
  private static func asctime(_ cursor: inout Cursor) -> Fields? {
    guard let name = cursor.word(in: CivilCalendar.monthNames), cursor.take(" ") else { return nil }
    let day = cursor.take(" ") ? cursor.digits(1) : cursor.digits(2)
    guard let day, cursor.take(" "), let time = clock(&cursor), cursor.take(" "),
      let year = cursor.digits(4)
    else { return nil }
    return Fields(year: year, month: name + 1, day: day, time: time)
  }

  /// `08:49:37` as seconds into the day, each field in range (second 60 allowed).
  private static func clock(_ cursor: inout Cursor) -> Int? {
    guard let hour = cursor.digits(2), (0...23).contains(hour), cursor.take(":"),
      let minute = cursor.digits(2), (0...59).contains(minute), cursor.take(":"),
      let second = cursor.digits(2), (0...60).contains(second)
    else { return nil }
    return hour * 3600 + minute * 60 + second
  }

  /// The year of the century's `twoDigits` nearest `now`'s: RFC 9110 reads a two-digit year
  /// more than 50 years in the future as the most recent past year with those digits, so the
  /// window is the 49 years before this one to the 50 after.
  private static func fullYear(twoDigits: Int, now: Date) -> Int {
    let today = Int(
      clamping: (now.timeIntervalSince1970 / Double(secondsPerDay)).rounded(.down),
      to: CivilCalendar.days(
        year: 1_970, month: 1, day: 1)...CivilCalendar.days(year: 9_899, month: 1, day: 1))
    let thisYear = CivilCalendar.date(days: today).year
    let candidate = thisYear / 100 * 100 + twoDigits
    if candidate > thisYear + 50 { return candidate - 100 }
    if candidate < thisYear - 49 { return candidate + 100 }
    return candidate
  }

  /// A date's fields, read but not yet checked against the calendar.
  private struct Fields {
    var year: Int
    var month: Int
    var day: Int
    var time: Int

    /// The instant, or nil for a day the month does not have or a year outside `years`.
    var instant: Date? {
      // The month came from the name table: 1…12.
      guard HTTPDate.years.contains(year),
        (1...CivilCalendar.daysIn(month: month, year: year)).contains(day)
      else { return nil }
      let days = CivilCalendar.days(year: year, month: month, day: day)
      return Date(timeIntervalSince1970: Double(days * HTTPDate.secondsPerDay + time))
    }
  }

  /// Reads ASCII tokens from the front of a byte array.
  private struct Cursor {
    private let bytes: [UInt8]
    private var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var isAtEnd: Bool { position == bytes.count }

    /// Consumes `literal` (ASCII, matched exactly) when the bytes start with it.
    mutating func take(_ literal: String) -> Bool {
      guard bytes[position...].starts(with: literal.utf8) else { return false }
      position += literal.utf8.count
      return true
    }

    /// Exactly `count` ASCII digits as a number.
    mutating func digits(_ count: Int) -> Int? {
      guard bytes.count - position >= count else { return nil }
      var value = 0
      for byte in bytes[position..<position + count] {
        guard (0x30...0x39).contains(byte) else { return nil }
        value = value * 10 + Int(byte - 0x30)
      }
      position += count
      return value
    }

    /// The index in `names` of the run of ASCII letters here, compared without case; the
    /// cursor moves only on a match.
    mutating func word(in names: [String]) -> Int? {
      var end = position
      while end < bytes.count, (0x41...0x5A).contains(bytes[end] & ~0x20) { end += 1 }
      let letters = bytes[position..<end].map { $0 | 0x20 }
      guard let index = names.firstIndex(where: { $0.lowercased().utf8.elementsEqual(letters) })
      else { return nil }
      position = end
      return index
    }
  }
}
