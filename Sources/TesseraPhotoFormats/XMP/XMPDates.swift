import Foundation

/// The date taken in an XMP packet, read from the packet parsed as XML with its namespaces
/// (`XMPPacket`, Exempi): a date in a comment, in a caption's text, or in a property of the
/// same name in another namespace is not the photo's; a packet that binds the namespaces to
/// other prefixes is read all the same. A packet over `XMPPacket`'s limits, or cut by the
/// bytes read, does not parse and tells no date.
///
/// Values are "YYYY-MM-DD", "YYYY-MM-DDThh:mm" or "YYYY-MM-DDThh:mm:ss", the time optionally
/// followed by fractions (of a second) and a zone, which is ignored: the clock reading is the
/// local time at which the photo was taken, a wall-clock time like EXIF's. A year or month
/// alone is too vague to sort by and is ignored; a date alone is that day's midnight. Days
/// and years are validated by `WallClockTime(exif:)`, as EXIF's are.
///
/// - Complexity: that of parsing the packet (O(bytes), at most ``maxPacketBytes``), then
///   O(1) property reads.
enum XMPDates {
  /// The longest packet parsed.
  static let maxPacketBytes = XMPPacket.maxPacketBytes
  /// Longest value read.
  static let maxValueBytes = 64

  /// Properties in order of preference: the moment taken, then the moment created. (`xap:`,
  /// the prefix Adobe's writers used until about 2008, is `xmp:`'s namespace: one entry.)
  static let properties: [(XMPPacket.Namespace, String)] = [
    (.exif, "DateTimeOriginal"), (.photoshop, "DateCreated"), (.xmp, "CreateDate"),
  ]

  static func taken(_ packet: [UInt8]) -> WallClockTime? {
    guard let parsed = XMPPacket(packet) else { return nil }
    for (namespace, name) in properties {
      if let value = parsed.property(namespace, name)?.trimmingCharacters(
        in: .whitespacesAndNewlines),
        value.utf8.count <= maxValueBytes, let time = time(Array(value.utf8))
      {
        return time
      }
    }
    return nil
  }

  /// An ISO 8601 date with an optional time, as a wall-clock time.
  static func time(_ value: [UInt8]) -> WallClockTime? {
    let text: String
    switch value.count {
    case 10: text = String(decoding: value, as: UTF8.self) + " 00:00:00"
    case 16...:
      guard value[10] == 0x54 else { return nil }
      if value.count >= 19, value[16] == 0x3A {
        text = String(decoding: value[0..<19], as: UTF8.self)
      } else if value.count == 16 || [0x2B, 0x2D, 0x5A].contains(value[16]) {
        // XMP allows the seconds left out, also before a zone: "2011-06-14T15:47+02:00".
        text = String(decoding: value[0..<16], as: UTF8.self) + ":00"
      } else {
        return nil
      }
    default: return nil
    }
    // The date's separators must be ISO's "-", not EXIF's ":", which `WallClockTime` also takes.
    guard value[4] == 0x2D else { return nil }
    return WallClockTime(exif: text)
  }
}
