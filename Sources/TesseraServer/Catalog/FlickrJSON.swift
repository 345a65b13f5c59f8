import Foundation

/// Writes JSON the way Flickr's feed does: `/` escaped as `\/`, and (a Flickr bug clients must
/// survive) `'` escaped as `\'` when `escapesApostrophes` is on. Linear in the output.
struct FlickrJSON {
  var escapesApostrophes: Bool
  /// Written before each field, for Flickr's tab-indented layout.
  var indent = ""
  private(set) var text = ""

  init(escapesApostrophes: Bool) {
    self.escapesApostrophes = escapesApostrophes
  }

  mutating func raw(_ fragment: String) { text += fragment }

  mutating func string(_ value: String) {
    text += "\""
    for scalar in value.unicodeScalars {
      switch scalar {
      case "\"": text += "\\\""
      case "\\": text += "\\\\"
      case "/": text += "\\/"
      case "'": text += escapesApostrophes ? "\\'" : "'"
      case "\n": text += "\\n"
      case "\r": text += "\\r"
      case "\t": text += "\\t"
      case _ where scalar.value < 0x20:
        let hex = String(scalar.value, radix: 16)
        text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: text.unicodeScalars.append(scalar)
      }
    }
    text += "\""
  }

  /// `"key": "value"` followed by `,` unless last.
  mutating func field(_ key: String, _ value: String, last: Bool = false) {
    text += indent
    string(key)
    text += ": "
    string(value)
    text += last ? "" : ",\n"
  }

  /// ISO 8601 in UTC with `Z`, as Flickr's `published` and `modified`.
  static func utc(_ date: Date) -> String {
    local(date, offsetMinutes: 0, zulu: true)
  }

  /// ISO 8601 local time with its offset, as Flickr's `date_taken`.
  static func local(_ date: Date, offsetMinutes: Int, zulu: Bool = false) -> String {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(secondsFromGMT: offsetMinutes * 60) ?? calendar.timeZone
    let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
    func two(_ value: Int?) -> String {
      let v = value ?? 0
      return v < 10 ? "0\(v)" : "\(v)"
    }
    let stamp =
      "\(c.year ?? 1970)-\(two(c.month))-\(two(c.day))T\(two(c.hour)):\(two(c.minute)):\(two(c.second))"
    if zulu { return stamp + "Z" }
    let sign = offsetMinutes < 0 ? "-" : "+"
    let magnitude = abs(offsetMinutes)
    return stamp + "\(sign)\(two(magnitude / 60)):\(two(magnitude % 60))"
  }
}
