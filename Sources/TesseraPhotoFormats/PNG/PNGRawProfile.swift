/// ImageMagick's raw profiles: the text of a PNG `zTXt` chunk keyed "Raw profile type exif"
/// (or "APP1", its older name) or "Raw profile type xmp", in which a JPEG converted to PNG by
/// ImageMagick keeps its EXIF and XMP. The text is a newline, the profile's name, a newline,
/// its length in bytes right-aligned in eight columns, a newline, then the bytes as hex digits
/// broken into lines.
///
/// - Complexity: O(text), at most the inflated chunk; the bytes decoded are at most
///   ``maxProfileBytes``.
enum PNGRawProfile {
  /// Longest profile decoded: EXIF's APP1 segment holds at most 64 KiB, and an XMP packet
  /// longer than this in a PNG's text is not read for a date.
  static let maxProfileBytes = 256 * 1024

  static let xmpKeyword = Array("Raw profile type xmp".utf8)
  static let exifKeywords = [
    Array("Raw profile type exif".utf8), Array("Raw profile type APP1".utf8),
  ]

  /// The profile's bytes; nil when the text is not one, states no length, a length over
  /// ``maxProfileBytes``, or fewer hex digits than the length.
  static func bytes(_ text: [UInt8]) -> [UInt8]? {
    var index = 0
    func skip(while belongs: (UInt8) -> Bool) {
      while index < text.count, belongs(text[index]) { index += 1 }
    }
    skip { $0 == 0x0A }
    skip { $0 != 0x0A }  // the name
    skip { $0 == 0x0A || $0 == 0x20 }
    var length = 0
    let digitsStart = index
    // Seven digits already exceed the limit: the number cannot overflow.
    while index < text.count, index - digitsStart < 7, let digit = decimal(text[index]) {
      length = length * 10 + digit
      index += 1
    }
    guard index > digitsStart, (1...maxProfileBytes).contains(length) else { return nil }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(length)
    var high: UInt8?
    while index < text.count, bytes.count < length {
      let character = text[index]
      index += 1
      guard let nibble = hex(character) else {
        if character == 0x0A || character == 0x0D || character == 0x20 { continue }
        return nil
      }
      if let first = high {
        bytes.append(first << 4 | nibble)
        high = nil
      } else {
        high = nibble
      }
    }
    return bytes.count == length ? bytes : nil
  }

  /// The TIFF structure of an EXIF profile, which ImageMagick stores as the APP1 payload it
  /// came from (`Exif\0\0` first) or bare.
  static func tiff(inExifProfile profile: [UInt8]) -> [UInt8] {
    let marker: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0, 0]
    return profile.starts(with: marker) ? Array(profile.dropFirst(marker.count)) : profile
  }

  private static func decimal(_ character: UInt8) -> Int? {
    (0x30...0x39).contains(character) ? Int(character - 0x30) : nil
  }

  private static func hex(_ character: UInt8) -> UInt8? {
    switch character {
    case 0x30...0x39: character - 0x30
    case 0x61...0x66: character - 0x61 + 10
    case 0x41...0x46: character - 0x41 + 10
    default: nil
    }
  }
}
