import Foundation
import TesseraUtilities

/// A time on a wall clock, without a time zone: what a camera writes in EXIF
/// ("2024:05:01 14:30:00"), and what a file's modification time reads as where the person is.
/// Stored as seconds since 1970-01-01 00:00:00 *on that clock*, so days and months are plain
/// integer arithmetic (Howard Hinnant's civil-date algorithms), with no calendar object per
/// photo: a 100,000-photo folder is grouped in milliseconds.
public struct WallClockTime: Comparable, Hashable, Sendable, CustomStringConvertible {
  /// Seconds since 1970-01-01 00:00:00 on the same wall clock.
  public let seconds: Int64

  public init(seconds: Int64) {
    self.seconds = seconds
  }

  /// The wall-clock reading of `date` in `zone` (the local one by default).
  public init(_ date: Date, in zone: TimeZone = .current) {
    let offset = Double(zone.secondsFromGMT(for: date))
    let value = (date.timeIntervalSince1970 + offset).rounded(.down)
    // Dates outside ±10,000 years are no photo's: clamp before converting.
    seconds = Int64(Int(clamping: value, to: -Self.secondsLimit...Self.secondsLimit))
  }

  /// Parses EXIF's "YYYY:MM:DD HH:MM:SS" (also with "-" between the date's parts); nil for
  /// anything else, for the all-zero "unknown" date and for impossible days (31 April).
  public init?(exif text: String) {
    let bytes = Array(text.utf8)
    guard bytes.count >= 19, bytes[4] == bytes[7], bytes[4] == 0x3A || bytes[4] == 0x2D,
      bytes[10] == 0x20 || bytes[10] == 0x54, bytes[13] == 0x3A, bytes[16] == 0x3A
    else { return nil }
    func number(_ range: Range<Int>) -> Int? {
      var value = 0
      for index in range {
        guard (0x30...0x39).contains(bytes[index]) else { return nil }
        value = value * 10 + Int(bytes[index] - 0x30)
      }
      return value
    }
    guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
      let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
      (1800...9999).contains(year), (1...12).contains(month),
      (1...CivilCalendar.daysIn(month: month, year: year)).contains(day), (0...23).contains(hour),
      (0...59).contains(minute), (0...60).contains(second)
    else { return nil }
    let days = CivilCalendar.days(year: year, month: month, day: day)
    // A leap second (:60) stays in its minute: counted on, 9999:12:31 23:59:60 became the
    // first second of the year 10000.
    seconds = Int64(days) * 86_400 + Int64(hour * 3_600 + minute * 60 + min(second, 59))
  }

  /// ±10,000 years in seconds: beyond it a time is clamped.
  package static let secondsLimit = 315_569_520_000

  /// Days since 1970-01-01 (floor division, so times before 1970 fall on the right day).
  public var day: Int {
    Int(seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400)
  }

  /// Year, month (1…12) and day (1…31) of `day`.
  public var civil: (year: Int, month: Int, day: Int) { CivilCalendar.date(days: day) }

  /// A month's number since year 0: year × 12 + month − 1.
  public var month: Int {
    let date = civil
    return date.year * 12 + date.month - 1
  }

  /// "1 May 2024".
  public var dayTitle: String {
    let date = civil
    return "\(date.day) \(CivilCalendar.monthNames[date.month - 1]) \(date.year)"
  }

  /// "May 2024".
  public var monthTitle: String {
    let date = civil
    return "\(CivilCalendar.monthNames[date.month - 1]) \(date.year)"
  }

  /// "2024-05-01 14:30".
  public var description: String {
    let date = civil
    let inDay = Int(seconds - Int64(day) * 86_400)
    func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
    return "\(date.year)-\(two(date.month))-\(two(date.day)) \(two(inDay / 3_600)):"
      + two(inDay % 3_600 / 60)
  }

  /// "2024-05-01 14:30:05": `description` to the second, for `tessera info`, whose dates are
  /// compared with other tools' to the second.
  public var descriptionWithSeconds: String {
    let second = Int(seconds - Int64(day) * 86_400) % 60
    return description + (second < 10 ? ":0\(second)" : ":\(second)")
  }

  public static func < (lhs: Self, rhs: Self) -> Bool { lhs.seconds < rhs.seconds }
}
