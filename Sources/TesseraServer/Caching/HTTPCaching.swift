import Foundation
import Hummingbird
import TesseraUtilities

/// HTTP validators and freshness: strong ETags from content, a fixed Last-Modified (generated
/// content never changes for a seed), `Cache-Control: max-age`, and 304 on revalidation.
enum HTTPCaching {
  /// A strong validator: the stable hash of the body, quoted.
  static func etag(for bytes: some Sequence<UInt8>) -> String {
    "\"\(StableHash.hex(StableHash.fnv1a(bytes)))\""
  }

  /// Whether the request's validators show the client already holds this representation.
  /// `If-None-Match` wins over `If-Modified-Since` (RFC 9110 §13.2.2).
  static func isNotModified(_ headers: HTTPFields, etag: String, lastModified: Date) -> Bool {
    if let match = headers[.ifNoneMatch] {
      let tags = match.split(separator: ",").map {
        let tag = $0.trimmingCharacters(in: .whitespaces)
        return tag.hasPrefix("W/") ? String(tag.dropFirst(2)) : tag
      }
      return tags.contains("*") || tags.contains(etag)
    }
    if let since = headers[.ifModifiedSince].flatMap(parseHTTPDate) {
      return lastModified.timeIntervalSince1970.rounded(.down) <= since.timeIntervalSince1970
    }
    return false
  }

  private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
  private static let months = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
  ]

  private static var utc: Calendar {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(secondsFromGMT: 0) ?? calendar.timeZone
    return calendar
  }

  /// IMF-fixdate: `Sat, 01 Jun 2024 12:00:00 GMT`.
  static func httpDate(_ date: Date) -> String {
    let c = utc.dateComponents(
      [.weekday, .day, .month, .year, .hour, .minute, .second], from: date)
    func two(_ value: Int?) -> String {
      let v = value ?? 0
      return v < 10 ? "0\(v)" : "\(v)"
    }
    let weekday = weekdays[((c.weekday ?? 1) - 1) % 7]
    let month = months[((c.month ?? 1) - 1) % 12]
    return
      "\(weekday), \(two(c.day)) \(month) \(c.year ?? 1970) \(two(c.hour)):\(two(c.minute)):\(two(c.second)) GMT"
  }

  /// Parses IMF-fixdate; nil for anything else (the obsolete formats are not worth it here).
  /// Every field is range-checked before the calendar sees it (day 1…31, year 1…9999,
  /// 00:00:00…23:59:60): a header is outside input.
  static func parseHTTPDate(_ text: String) -> Date? {
    let parts = text.split(separator: " ")
    guard parts.count == 6, parts[5] == "GMT", let day = Int(parts[1]), (1...31).contains(day),
      let month = months.firstIndex(of: String(parts[2])), let year = Int(parts[3]),
      ServerLimits.httpDateYears.contains(year)
    else { return nil }
    let time = parts[4].split(separator: ":").compactMap { Int($0) }
    guard time.count == 3, (0...23).contains(time[0]), (0...59).contains(time[1]),
      (0...60).contains(time[2])
    else { return nil }
    let components = DateComponents(
      year: year, month: month + 1, day: day, hour: time[0], minute: time[1], second: time[2])
    return utc.date(from: components)
  }
}
