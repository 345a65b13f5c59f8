/// One ISO base media box of a file read through a ``RawByteReader``: its type, its uuid (for
/// a `uuid` box) and where its payload lies in the file.
struct RawBox {
  /// The four-character type, big-endian ("moov" is 0x6D6F_6F76).
  var type: Int
  /// The 16-byte extended type of a `uuid` box; empty otherwise.
  var uuid: [UInt8]
  /// File offsets of the bytes after the header (and after the uuid).
  var payload: Range<Int>

  static func fourCC(_ text: StaticString) -> Int {
    text.withUTF8Buffer { $0.reduce(0) { $0 << 8 | Int($1) } }
  }
}

/// The boxes that follow one another in a range of a file (ISO/IEC 14496-12 §4.2: 32-bit
/// sizes, 64-bit `largesize` for size 1, size 0 "to the end", `uuid` extended types), read a
/// header at a time: a CR3's boxes are a few KiB of structure around 20–80 MB of data that is
/// never read.
///
/// The same header rules as `ISOBoxes` (`HEIF/HEIFBoxes.swift`, which walks bytes already in
/// memory); here the bytes come through the reader's budget. A box that claims more than its
/// container holds ends the walk (it is not returned); at the file's top level that marks the
/// file as cut short.
///
/// - Complexity: O(boxes returned), at most ``maxBoxes``, one read of at most 32 bytes each.
enum RawBoxes {
  static let maxBoxes = 64

  static func children(
    of range: Range<Int>, reader: RawByteReader
  ) throws(RawByteReader.Stop) -> [RawBox] {
    var boxes: [RawBox] = []
    var position = range.lowerBound
    while range.upperBound - position >= 8, boxes.count < maxBoxes {
      let available = range.upperBound - position
      guard let header = try reader.bytes(at: position, upTo: min(32, available)),
        header.count >= 8, let size32 = RawEndian.big.u32(header, 0),
        let type = RawEndian.big.u32(header, 4)
      else { break }
      var size = size32
      var headerLength = 8
      if size32 == 1 {
        guard let high = RawEndian.big.u32(header, 8), let low = RawEndian.big.u32(header, 12)
        else { break }
        // A size of 2^31 × 2^32 or more is more than any file: cut to one past what there is.
        size = high >= 1 << 31 ? available + 1 : high << 32 | low
        headerLength = 16
      } else if size32 == 0 {
        size = available
      }
      var uuid: [UInt8] = []
      if type == RawBox.fourCC("uuid") {
        guard header.count >= headerLength + 16 else { break }
        uuid = Array(header[headerLength..<headerLength + 16])
        headerLength += 16
      }
      guard size >= headerLength else { break }
      guard size <= available else {
        if range.upperBound == reader.fileSize { reader.reachedPastEnd = true }
        break
      }
      boxes.append(
        RawBox(type: type, uuid: uuid, payload: (position + headerLength)..<(position + size)))
      position += size
    }
    return boxes
  }
}

/// Canon's CR3 (ISO base media, `ftyp` brand `crx `): the `uuid` box 85c0b687-820f-11e0-
/// 8111-f4ce462b6a48 in `moov` holds THMB (a 160×120 JPEG) and CMT1 (IFD0, with the
/// orientation); the top-level `uuid` box eaf42b5e-1c98-4b88-b9fb-b7dc406e4d16 holds PRVW (a
/// 1620×1080 JPEG). The full-size JPEG render sits in `mdat` as a track's sample; the PRVW is
/// what every viewer shows.
///
/// Both JPEG boxes start with 16 bytes of their own (version, the size, the JPEG's length),
/// then the JPEG; it must lie inside its box.
///
/// - Complexity: O(boxes) at three levels, each at most ``RawBoxes/maxBoxes``; CMT1 read
///   whole, at most ``maxCMT1`` bytes.
package enum RawCR3 {
  package static let canonUUID: [UInt8] = [
    0x85, 0xC0, 0xB6, 0x87, 0x82, 0x0F, 0x11, 0xE0, 0x81, 0x11, 0xF4, 0xCE, 0x46, 0x2B, 0x6A, 0x48,
  ]
  package static let previewUUID: [UInt8] = [
    0xEA, 0xF4, 0x2B, 0x5E, 0x1C, 0x98, 0x4B, 0x88, 0xB9, 0xFB, 0xB7, 0xDC, 0x40, 0x6E, 0x4D, 0x16,
  ]
  /// CMT1 is IFD0 of a few hundred bytes.
  static let maxCMT1 = 64 * 1024

  /// Whether the file's first bytes are a CR3's `ftyp` box.
  static func matches(_ head: [UInt8]) -> Bool {
    guard head.count >= 12, let size = RawEndian.big.u32(head, 0), size >= 12,
      RawEndian.big.u32(head, 4) == RawBox.fourCC("ftyp")
    else { return false }
    return RawEndian.big.u32(head, 8) == RawBox.fourCC("crx ")
  }

  /// The JPEG ranges a CR3 names, and its orientation.
  static func candidates(
    reader: RawByteReader
  ) throws(RawByteReader.Stop) -> (ranges: [(offset: Int, count: Int)], orientation: Int) {
    var ranges: [(offset: Int, count: Int)] = []
    var orientation = 1
    for box in try RawBoxes.children(of: 0..<reader.fileSize, reader: reader) {
      if box.type == RawBox.fourCC("moov") {
        for child in try RawBoxes.children(of: box.payload, reader: reader)
        where child.uuid == canonUUID {
          for item in try RawBoxes.children(of: child.payload, reader: reader) {
            if item.type == RawBox.fourCC("THMB"),
              let range = try jpeg(in: item, lengthAt: 8, reader: reader)
            {
              ranges.append(range)
            } else if item.type == RawBox.fourCC("CMT1"),
              let value = try cmt1Orientation(item, reader: reader)
            {
              orientation = value
            }
          }
        }
      } else if box.uuid == previewUUID, box.payload.count > 8 {
        // 8 bytes (a version and a count), then the PRVW box.
        let inner = (box.payload.lowerBound + 8)..<box.payload.upperBound
        for item in try RawBoxes.children(of: inner, reader: reader)
        where item.type == RawBox.fourCC("PRVW") {
          if let range = try jpeg(in: item, lengthAt: 12, reader: reader) { ranges.append(range) }
        }
      }
    }
    return (ranges, orientation)
  }

  /// The JPEG after a THMB or PRVW box's 16 bytes of header, of the length the header states at
  /// `lengthAt` (cut to the box when it claims more).
  private static func jpeg(
    in box: RawBox, lengthAt: Int, reader: RawByteReader
  ) throws(RawByteReader.Stop) -> (offset: Int, count: Int)? {
    guard box.payload.count > 16,
      let header = try reader.bytes(at: box.payload.lowerBound, count: 16),
      let stated = RawEndian.big.u32(header, lengthAt)
    else { return nil }
    let room = box.payload.count - 16
    return (box.payload.lowerBound + 16, stated > 0 && stated <= room ? stated : room)
  }

  /// CMT1's IFD0 orientation (a whole TIFF structure, read as EXIF is read).
  private static func cmt1Orientation(
    _ box: RawBox, reader: RawByteReader
  ) throws(RawByteReader.Stop) -> Int? {
    guard box.payload.count <= maxCMT1,
      let bytes = try reader.bytes(at: box.payload.lowerBound, count: box.payload.count),
      let tiff = ExifStructure(bytes: bytes, range: 0..<bytes.count), let ifd0 = tiff.firstIFD
    else { return nil }
    for entry in tiff.entries(at: ifd0) where entry.tag == 0x0112 {
      if let value = tiff.integer(entry), (1...8).contains(value) { return value }
    }
    return nil
  }
}
