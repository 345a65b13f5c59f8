/// The date taken in an XMP packet, found by a bounded scan for a few property names and an
/// ISO 8601 value — not an XML parser: only a date is wanted, and parsing a hostile document
/// whole would cost more than the walk can spend per photo.
///
/// A property is found written either way `rdf:Description` allows: as an attribute
/// (`exif:DateTimeOriginal="2024-05-01T14:30:00"`, either quote) or as an element
/// (`<exif:DateTimeOriginal>2024-05-01T14:30:00</exif:DateTimeOriginal>`). The prefixes are
/// the ones every writer uses; a packet that binds those namespaces to other prefixes is not
/// read.
///
/// Values are "YYYY-MM-DD", "YYYY-MM-DDThh:mm" or "YYYY-MM-DDThh:mm:ss", the time optionally
/// followed by fractions (of a second) and a zone, which is ignored: the clock reading is the local time at which the
/// photo was taken, a wall-clock time like EXIF's. A year or month alone is too vague to sort
/// by and is ignored; a date alone is that day's midnight. Days and years are validated by
/// `WallClockTime(exif:)`, as EXIF's are.
///
/// - Complexity: O(``maxPacketBytes`` × properties); a longer packet is read only that far.
enum XMPDates {
  /// Bytes of a packet scanned; the date properties come early in `rdf:Description`.
  static let maxPacketBytes = 64 * 1024
  /// Longest value read.
  static let maxValueBytes = 64

  /// Properties in order of preference: the moment taken, then the moment created. `xap:` is
  /// the `xmp:` namespace under the prefix Adobe's writers used until about 2008 (Photoshop
  /// CS3's files have it).
  static let properties = [
    "exif:DateTimeOriginal", "photoshop:DateCreated", "xmp:CreateDate", "xap:CreateDate",
  ]

  static func taken(_ packet: [UInt8]) -> WallClockTime? {
    let bytes = packet.prefix(maxPacketBytes)
    for property in properties {
      let name = Array(property.utf8)
      var index = bytes.startIndex
      while let found = firstIndex(of: name, in: bytes, from: index) {
        index = found + 1
        if let value = value(after: found + name.count, in: bytes, opener: found - 1),
          let time = time(value)
        {
          return time
        }
      }
    }
    return nil
  }

  private static func firstIndex(
    of name: [UInt8], in bytes: ArraySlice<UInt8>, from start: Int
  ) -> Int? {
    guard let first = name.first, bytes.count >= name.count else { return nil }
    var index = start
    while index <= bytes.endIndex - name.count {
      if bytes[index] == first, bytes[index..<index + name.count].elementsEqual(name) {
        return index
      }
      index += 1
    }
    return nil
  }

  /// The value of the property whose name ends at `index`: an attribute's quoted value, or an
  /// element's text (the name opened by `<` at `opener`).
  private static func value(after index: Int, in bytes: ArraySlice<UInt8>, opener: Int) -> [UInt8]?
  {
    var index = index
    func skipBlanks() {
      while index < bytes.endIndex, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }
    let before = opener >= bytes.startIndex ? bytes[opener] : 0
    skipBlanks()
    guard index < bytes.endIndex else { return nil }
    let end: UInt8
    if bytes[index] == 0x3D, before != 0x3C {  // name = "value"
      index += 1
      skipBlanks()
      guard index < bytes.endIndex, bytes[index] == 0x22 || bytes[index] == 0x27 else {
        return nil
      }
      end = bytes[index]
    } else if bytes[index] == 0x3E, before == 0x3C {  // <name>value<
      end = 0x3C
    } else {
      return nil
    }
    index += 1
    let start = index
    while index < bytes.endIndex, bytes[index] != end, index - start <= maxValueBytes { index += 1 }
    guard index < bytes.endIndex, bytes[index] == end else { return nil }
    var value = Array(bytes[start..<index])
    while let last = value.last, [0x20, 0x09, 0x0A, 0x0D].contains(last) { value.removeLast() }
    while let first = value.first, [0x20, 0x09, 0x0A, 0x0D].contains(first) {
      value.removeFirst()
    }
    return value
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
