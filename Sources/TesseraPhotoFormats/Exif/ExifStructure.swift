import TesseraUtilities

/// The TIFF structure that holds a photo's EXIF, read from hostile bytes: a JPEG's APP1
/// `Exif\0\0` segment, or a TIFF file's own header. The folder walk reads dates and the
/// camera from it (`ExifReader`); the pipeline finds the thumbnail a camera
/// embeds in it (IFD1).
///
/// Every offset and count from the bytes is checked against the bytes that are there before
/// any arithmetic that could overflow; anything out of place reads as absent (nil), never a
/// trap. Offsets are relative to the structure's start, as TIFF states them.
///
/// - Complexity: finding the structure is O(segments before APP1), at most
///   ``maxJPEGSegments``; an IFD is read in O(its entries), at most ``maxIFDEntries``.
package struct ExifStructure {
  /// JPEG segments looked at before giving up on APP1.
  package static let maxJPEGSegments = JPEGHeaderSegments.maxSegments
  /// Entries read per IFD; a longer one is not read at all.
  package static let maxIFDEntries = FeedLimits.maxIFDEntries

  /// One IFD entry: its tag, type, value count and where the entry itself starts.
  package struct Entry {
    package var tag: Int
    package var type: Int
    package var count: Int
    package var offset: Int
  }

  /// TIFF's 42, and the numbers RAW files put in its place over the same structure:
  /// Panasonic's RW2 (0x55), Olympus' ORF ("RO", "RS").
  package static let magics: Set<Int> = [42, 0x55, 0x4F52, 0x5352]

  package let bytes: [UInt8]
  /// Where the structure starts in `bytes`.
  package let base: Int
  /// How many bytes it has (with a window: the whole file's, most of them never read).
  package let length: Int
  package let bigEndian: Bool
  /// Bytes of the structure read apart, further on (a TIFF whose IFD0 is at the file's end),
  /// and where they start in it; bytes in neither `bytes` nor the window read as absent.
  private var window: [UInt8] = []
  private var windowStart = Int.max
  /// The structure's bytes held in `bytes`, from `base`.
  private let headLength: Int

  /// The structure in a JPEG's APP1 segment, or of a TIFF file, at the start of `bytes`.
  package init?(photo bytes: [UInt8]) {
    if let range = Self.tiffRange(inJPEG: bytes) {
      self.init(bytes: bytes, range: range)
    } else if bytes.count >= 4, bytes[0] == bytes[1], bytes[0] == 0x49 || bytes[0] == 0x4D {
      self.init(bytes: bytes, range: 0..<bytes.count)
    } else {
      return nil
    }
  }

  /// The structure occupying `range` of `bytes`.
  package init?(bytes: [UInt8], range: Range<Int>) {
    guard range.lowerBound >= 0, range.upperBound <= bytes.count, range.count >= 8 else {
      return nil
    }
    self.bytes = bytes
    base = range.lowerBound
    length = range.count
    headLength = range.count
    switch (bytes[base], bytes[base + 1]) {
    case (0x49, 0x49): bigEndian = false
    case (0x4D, 0x4D): bigEndian = true
    default: return nil
    }
    guard let magic = u16(2), Self.magics.contains(magic) else { return nil }
  }

  /// A TIFF file of `fileLength` bytes whose first bytes are `head` and of which `window` was
  /// read at `windowStart` (past the head): IFD0 at the end of the file, where drones and
  /// multispectral cameras write it.
  package init?(tiffHead head: [UInt8], window: [UInt8], at windowStart: Int, fileLength: Int) {
    guard windowStart >= head.count, fileLength >= windowStart,
      window.count <= fileLength - windowStart,
      var structure = Self(bytes: head, range: 0..<head.count)
    else { return nil }
    structure = Self(
      copying: structure, length: fileLength, window: window, windowStart: windowStart)
    self = structure
  }

  private init(copying other: Self, length: Int, window: [UInt8], windowStart: Int) {
    bytes = other.bytes
    base = other.base
    headLength = other.headLength
    bigEndian = other.bigEndian
    self.length = length
    self.window = window
    self.windowStart = windowStart
  }

  /// The byte at `offset` of the structure, nil where nothing was read.
  @inline(__always)
  private func byte(_ offset: Int) -> UInt8? {
    if offset >= 0 && offset < headLength { return bytes[base + offset] }
    guard offset >= windowStart, offset - windowStart < window.count else { return nil }
    return window[offset - windowStart]
  }

  /// The TIFF structure inside a JPEG's `Exif\0\0` APP1 segment.
  package static func tiffRange(inJPEG bytes: [UInt8]) -> Range<Int>? {
    let exif: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0, 0]
    let app1 = JPEGHeaderSegments(bytes).first { segment in
      segment.marker == 0xE1 && bytes[segment.payload].starts(with: exif)
    }
    guard let payload = app1?.payload, payload.count >= exif.count + 2 else { return nil }
    return (payload.lowerBound + exif.count)..<payload.upperBound
  }

  /// IFD0's offset.
  package var firstIFD: Int? { u32(4) }

  /// The entries of the IFD at `offset`, when the whole IFD lies within the structure and has
  /// at most ``maxIFDEntries``; empty otherwise.
  package func entries(at offset: Int) -> [Entry] {
    guard offset >= 8, offset <= length - 2, let count = u16(offset),
      count <= Self.maxIFDEntries, offset + 2 + count * 12 <= length
    else { return [] }
    return (0..<count).compactMap { index in
      let entry = offset + 2 + index * 12
      guard let tag = u16(entry), let type = u16(entry + 2), let values = u32(entry + 4) else {
        return nil
      }
      return Entry(tag: tag, type: type, count: values, offset: entry)
    }
  }

  /// The offset of the IFD that follows the one at `offset` (IFD1 after IFD0), nil at the
  /// end of the chain or when it points outside the structure.
  package func nextIFD(after offset: Int) -> Int? {
    guard offset >= 8, let count = u16(offset), count <= Self.maxIFDEntries,
      let next = u32(offset + 2 + count * 12), next >= 8, next < length
    else { return nil }
    return next
  }

  /// A SHORT (type 3) or LONG (type 4) value of a one-value entry.
  package func integer(_ entry: Entry) -> Int? {
    guard entry.count == 1 else { return nil }
    switch entry.type {
    case 3: return u16(entry.offset + 8)
    case 4: return u32(entry.offset + 8)
    default: return nil
    }
  }

  /// An ASCII value (type 2) of at most `maxLength` bytes, inline or at its offset; NULs and
  /// blanks trimmed, anything not printable ASCII refused.
  package func ascii(_ entry: Entry, maxLength: Int) -> String? {
    guard entry.type == 2, (1...max(1, maxLength)).contains(entry.count) else { return nil }
    let start: Int
    if entry.count <= 4 {
      start = entry.offset + 8
    } else {
      guard let offset = u32(entry.offset + 8) else { return nil }
      start = offset
    }
    guard start >= 0, start <= length - entry.count else { return nil }
    var read: [UInt8] = []
    for offset in start..<(start + entry.count) {
      guard let value = byte(offset) else { return nil }
      read.append(value)
    }
    var text = read.prefix { $0 != 0 }
    while let last = text.last, last == 0x20 { text.removeLast() }
    guard !text.isEmpty, text.allSatisfy({ (0x20...0x7E).contains($0) }) else { return nil }
    return String(decoding: text, as: UTF8.self)
  }

  /// Value `index` of a RATIONAL (type 5) entry, as numerator and denominator (never 0),
  /// read at the entry's offset; nil for another type or a value outside the structure.
  package func rational(_ entry: Entry, index: Int = 0) -> (Int, Int)? {
    guard entry.type == 5 || entry.type == 10, index >= 0, index < entry.count,
      entry.count <= Self.maxIFDEntries, let start = u32(entry.offset + 8),
      let numerator = u32(start + index * 8), let denominator = u32(start + index * 8 + 4),
      denominator != 0
    else { return nil }
    guard entry.type == 10 else { return (numerator, denominator) }
    // SRATIONAL: both halves are two's complement 32-bit numbers.
    func signed(_ value: Int) -> Int { value >= 1 << 31 ? value - (1 << 32) : value }
    return (signed(numerator), signed(denominator))
  }

  /// Value `index` of a RATIONAL or SRATIONAL entry as a number; nil where ``rational(_:index:)`` is.
  package func real(_ entry: Entry, index: Int = 0) -> Double? {
    rational(entry, index: index).map { Double($0.0) / Double($0.1) }
  }

  /// The byte at `offset` within the structure, if it is there.
  package func u8(_ offset: Int) -> Int? {
    guard offset >= 0, offset < length else { return nil }
    return byte(offset).map(Int.init)
  }

  /// The 16-bit value at `offset` within the structure, if all its bytes are there.
  package func u16(_ offset: Int) -> Int? {
    guard offset >= 0, offset <= length - 2, let high = byte(offset), let low = byte(offset + 1)
    else { return nil }
    let first = Int(high)
    let second = Int(low)
    return bigEndian ? first << 8 | second : second << 8 | first
  }

  /// The 32-bit value at `offset` (0…4,294,967,295: fits an `Int` on 64-bit platforms).
  package func u32(_ offset: Int) -> Int? {
    guard offset >= 0, offset <= length - 4 else { return nil }
    var sum = 0
    for index in 0..<4 {
      guard let value = byte(offset + (bigEndian ? index : 3 - index)) else { return nil }
      sum = sum << 8 | Int(value)
    }
    return sum
  }
}
