/// What a photo's EXIF says about it, as far as the gallery cares: when it was taken, with
/// which camera, and how it is turned.
public struct ExifFacts: Equatable, Sendable {
  /// DateTimeOriginal (or else DateTimeDigitized): the camera's wall clock, no time zone.
  public var taken: WallClockTime?
  /// The camera model (tag 0x0110), printable ASCII only, at most `FeedLimits.maxExifText`.
  public var model: String?
  /// EXIF orientation 1…8 (1 upright); nil when absent or outside 1…8.
  public var orientation: Int?

  public init(taken: WallClockTime? = nil, model: String? = nil, orientation: Int? = nil) {
    self.taken = taken
    self.model = model
    self.orientation = orientation
  }

  /// Orientations 5…8 turn the picture a quarter: its shown width is the stored height.
  public var swapsSides: Bool { (5...8).contains(orientation ?? 1) }
}

/// A small, bounded EXIF reader over a file's first bytes (the prefix the folder walk already
/// reads): a JPEG's APP1 `Exif\0\0` segment, or a TIFF file's own header. Only IFD0 and the
/// Exif IFD are read, each at most once, so a forged offset can point nowhere new and no chain
/// of IFDs can loop.
///
/// The bytes are hostile: every offset and count from them is checked against the bytes that
/// are there before any arithmetic that could overflow, and anything out of place ends the read
/// with what was found so far (nil fields), never a trap.
///
/// - Complexity: O(segments before APP1 + entries of the two IFDs), both bounded by
///   `FeedLimits.maxJPEGSegments` and `FeedLimits.maxIFDEntries`.
public enum ExifReader {
  /// The facts in `bytes`, or nil when they hold no readable EXIF.
  public static func facts(_ bytes: [UInt8]) -> ExifFacts? {
    let bytes =
      bytes.count > FeedLimits.maxHeaderBytes
      ? Array(bytes.prefix(FeedLimits.maxHeaderBytes)) : bytes
    if let tiff = tiffRange(inJPEG: bytes) { return TIFFReader(bytes: bytes, range: tiff)?.facts() }
    if bytes.count >= 4, bytes[0] == bytes[1], bytes[0] == 0x49 || bytes[0] == 0x4D {
      return TIFFReader(bytes: bytes, range: 0..<bytes.count)?.facts()
    }
    return nil
  }

  /// The TIFF structure inside a JPEG's `Exif\0\0` APP1 segment.
  static func tiffRange(inJPEG bytes: [UInt8]) -> Range<Int>? {
    guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
    var index = 2
    var segments = 0
    while index + 4 <= bytes.count, segments < FeedLimits.maxJPEGSegments {
      guard bytes[index] == 0xFF else { return nil }
      let marker = bytes[index + 1]
      if marker == 0xFF {  // fill byte
        index += 1
        continue
      }
      // Markers without a length: TEM, RSTn; SOS and EOI end the header.
      if marker == 0x01 || (0xD0...0xD7).contains(marker) {
        index += 2
        continue
      }
      if marker == 0xDA || marker == 0xD9 { return nil }
      segments += 1
      let length = Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
      guard length >= 2 else { return nil }
      let start = index + 4
      let end = index + 2 + length  // both below count + 65,537: no overflow
      if marker == 0xE1, end <= bytes.count, length >= 8,
        bytes[start..<start + 6].elementsEqual([0x45, 0x78, 0x69, 0x66, 0, 0])
      {
        return (start + 6)..<end
      }
      index = end
    }
    return nil
  }
}

/// IFD0 and the Exif IFD of one TIFF structure, within `range` of `bytes`.
private struct TIFFReader {
  let bytes: [UInt8]
  let base: Int
  let length: Int
  let bigEndian: Bool

  init?(bytes: [UInt8], range: Range<Int>) {
    guard range.lowerBound >= 0, range.upperBound <= bytes.count, range.count >= 8 else {
      return nil
    }
    self.bytes = bytes
    base = range.lowerBound
    length = range.count
    switch (bytes[base], bytes[base + 1]) {
    case (0x49, 0x49): bigEndian = false
    case (0x4D, 0x4D): bigEndian = true
    default: return nil
    }
    guard u16(2) == 42 else { return nil }
  }

  /// Tags read: Model and Orientation (IFD0), the Exif IFD pointer, the two dates.
  private enum Tag {
    static let model = 0x0110
    static let orientation = 0x0112
    static let exifPointer = 0x8769
    static let dateTimeOriginal = 0x9003
    static let dateTimeDigitized = 0x9004
  }

  func facts() -> ExifFacts? {
    guard let ifd0 = u32(4) else { return nil }
    var facts = ExifFacts()
    var exifOffset: Int?
    forEachEntry(at: ifd0) { tag, type, count, entry in
      switch tag {
      case Tag.model: facts.model = ascii(type: type, count: count, entry: entry)
      case Tag.orientation:
        if type == 3, count >= 1, let value = u16(entry + 8), (1...8).contains(value) {
          facts.orientation = value
        }
      case Tag.exifPointer:
        if type == 4 || type == 13, count == 1 { exifOffset = u32(entry + 8) }
      default: break
      }
    }
    if let exifOffset, exifOffset != ifd0 {
      var digitized: WallClockTime?
      forEachEntry(at: exifOffset) { tag, type, count, entry in
        guard tag == Tag.dateTimeOriginal || tag == Tag.dateTimeDigitized,
          let text = ascii(type: type, count: count, entry: entry),
          let time = WallClockTime(exif: text)
        else { return }
        if tag == Tag.dateTimeOriginal { facts.taken = time } else { digitized = time }
      }
      facts.taken = facts.taken ?? digitized
    }
    return facts == ExifFacts() ? nil : facts
  }

  /// Calls `body(tag, type, count, entryOffset)` for each entry of the IFD at `offset`, when
  /// the whole IFD lies within the structure and has at most `FeedLimits.maxIFDEntries`.
  private func forEachEntry(at offset: Int, _ body: (Int, Int, Int, Int) -> Void) {
    guard offset >= 8, offset <= length - 2, let count = u16(offset),
      count <= FeedLimits.maxIFDEntries, offset + 2 + count * 12 <= length
    else { return }
    for index in 0..<count {
      let entry = offset + 2 + index * 12
      guard let tag = u16(entry), let type = u16(entry + 2), let values = u32(entry + 4) else {
        return
      }
      body(tag, type, values, entry)
    }
  }

  /// An ASCII value (type 2) of at most `FeedLimits.maxExifText` bytes, inline or at its
  /// offset; NULs and blanks trimmed, anything not printable ASCII refused.
  private func ascii(type: Int, count: Int, entry: Int) -> String? {
    guard type == 2, (1...FeedLimits.maxExifText).contains(count) else { return nil }
    let start: Int
    if count <= 4 {
      start = entry + 8
    } else {
      guard let offset = u32(entry + 8) else { return nil }
      start = offset
    }
    guard start >= 0, start <= length - count else { return nil }
    var text = bytes[(base + start)..<(base + start + count)].prefix { $0 != 0 }
    while let last = text.last, last == 0x20 { text.removeLast() }
    guard !text.isEmpty, text.allSatisfy({ (0x20...0x7E).contains($0) }) else { return nil }
    return String(decoding: text, as: UTF8.self)
  }

  /// The 16-bit value at `offset` within the structure, if all its bytes are there.
  private func u16(_ offset: Int) -> Int? {
    guard offset >= 0, offset <= length - 2 else { return nil }
    let first = Int(bytes[base + offset])
    let second = Int(bytes[base + offset + 1])
    return bigEndian ? first << 8 | second : second << 8 | first
  }

  /// The 32-bit value at `offset` (0…4,294,967,295: fits an `Int` on 64-bit platforms).
  private func u32(_ offset: Int) -> Int? {
    guard offset >= 0, offset <= length - 4 else { return nil }
    let value = (0..<4).reduce(0) { sum, index in
      let byte = Int(bytes[base + offset + (bigEndian ? index : 3 - index)])
      return sum << 8 | byte
    }
    return value
  }
}
