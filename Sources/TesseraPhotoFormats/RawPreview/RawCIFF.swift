import Foundation
import TesseraUtilities

/// Canon's CRW (CIFF, "HEAPCCDR" at byte 6): a heap of records whose table sits at the heap's
/// end (its offset in the heap's last four bytes): a 16-bit count, then 10-byte records of a
/// tag, a size and an offset from the heap's start. Tags whose type bits are 0x2800 or 0x3000
/// are heaps themselves (0x300A image properties, 0x300B exif-like …); `JpgFromRaw` (0x2007)
/// is the camera's full-size JPEG, `ThumbnailImage` (0x2008) a small one (the only one some
/// PowerShots write); `ImageInfo` (0x1810) holds the rotation (0, 90, 180, 270 degrees, as a
/// signed 32-bit word at byte 12).
///
/// Bounded: heaps nested at most ``maxDepth`` deep, ``maxRecords`` records a heap and
/// ``maxTotalRecords`` in all; every record's data must lie inside its heap.
///
/// - Complexity: O(records), at most ``maxTotalRecords``, one read per heap table.
struct RawCIFF {
  static let maxDepth = 4
  static let maxRecords = 512
  static let maxTotalRecords = 2_048
  static let maxCandidates = 8

  let reader: RawByteReader
  let endian: RawEndian
  private(set) var candidates: [(offset: Int, count: Int)] = []
  private(set) var orientation = 1
  /// `CaptureTime` (0x180E)'s first word: seconds since 1970 on the camera's clock (as
  /// exiftool reads its DateTimeOriginal); nil when absent or 0.
  private(set) var takenSeconds: Int?
  /// `MakeModel` (0x080A): the make, a NUL, the model; printable ASCII, at most
  /// `FeedLimits.maxExifText` bytes.
  private(set) var model: String?
  private var records = 0

  /// The file's byte order and the root heap's start when the head is a CIFF header.
  static func header(_ head: [UInt8]) -> (endian: RawEndian, heapStart: Int)? {
    guard head.count >= 14, head[6..<14].elementsEqual(Array("HEAPCCDR".utf8)) else {
      return nil
    }
    let endian: RawEndian
    switch (head[0], head[1]) {
    case (0x49, 0x49): endian = RawEndian(bigEndian: false)
    case (0x4D, 0x4D): endian = RawEndian(bigEndian: true)
    default: return nil
    }
    guard let start = endian.u32(head, 2), start >= 14 else { return nil }
    return (endian, start)
  }

  init(reader: RawByteReader, endian: RawEndian) {
    self.reader = reader
    self.endian = endian
  }

  /// Reads the heap occupying `range` of the file and the heaps it holds.
  mutating func walk(heap range: Range<Int>, depth: Int = 0) throws(RawByteReader.Stop) {
    guard depth <= Self.maxDepth, range.count >= 6, range.upperBound <= reader.fileSize,
      let tail = try reader.bytes(at: range.upperBound - 4, count: 4),
      let tableOffset = endian.u32(tail, 0), tableOffset <= range.count - 6,
      let countBytes = try reader.bytes(at: range.lowerBound + tableOffset, count: 2),
      let count = endian.u16(countBytes, 0), count <= Self.maxRecords,
      count * 10 <= range.count - 6 - tableOffset,
      let table = try reader.bytes(at: range.lowerBound + tableOffset + 2, count: count * 10)
    else { return }
    for index in 0..<count {
      records += 1
      guard records <= Self.maxTotalRecords else { return }
      let at = index * 10
      guard let tag = endian.u16(table, at), let size = endian.u32(table, at + 2),
        let offset = endian.u32(table, at + 6)
      else { return }
      // Location bits 0x0000: the data is in the heap (0x4000: in the record itself).
      guard tag & 0xC000 == 0, offset <= range.count, size <= range.count - offset else {
        continue
      }
      let start = range.lowerBound + offset
      let type = tag & 0x3800
      if type == 0x2800 || type == 0x3000 {
        try walk(heap: start..<(start + size), depth: depth + 1)
      } else if tag & 0x3FFF == 0x2007 || tag & 0x3FFF == 0x2008, size > 0,
        candidates.count < Self.maxCandidates
      {
        candidates.append((start, size))
      } else if tag & 0x3FFF == 0x180E, size >= 4, takenSeconds == nil,
        let time = try reader.bytes(at: start, count: 4), let seconds = endian.u32(time, 0),
        seconds > 0
      {
        takenSeconds = seconds
      } else if tag & 0x3FFF == 0x080A, size > 0, model == nil,
        let text = try reader.bytes(at: start, count: min(size, 2 * FeedLimits.maxExifText + 2))
      {
        model = Self.model(inMakeModel: text)
      } else if tag & 0x3FFF == 0x1810, size >= 16,
        let info = try reader.bytes(at: start + 12, count: 4), let degrees = endian.s32(info, 0)
      {
        // (degrees + 3600) % 360, as dcraw reads it; clockwise.
        switch ((degrees % 360) + 360) % 360 {
        case 90: orientation = 6
        case 180: orientation = 3
        case 270: orientation = 8
        default: orientation = 1
        }
      }
    }
  }

  /// The model in a `MakeModel` record ("Canon\0Canon EOS D30\0"), when it is printable ASCII.
  static func model(inMakeModel bytes: [UInt8]) -> String? {
    let fields = bytes.split(separator: 0, omittingEmptySubsequences: false)
    guard fields.count >= 2 else { return nil }
    let model = fields[1]
    guard !model.isEmpty, model.count <= FeedLimits.maxExifText,
      model.allSatisfy({ (0x20...0x7E).contains($0) })
    else { return nil }
    return String(decoding: model, as: UTF8.self).trimmingCharacters(in: .whitespaces)
  }

  /// The date taken and camera of the CRW of `fileSize` bytes whose first bytes are `head`,
  /// walking its heaps through `read` within `RawByteReader`'s budget: the root heap's table
  /// is at the file's end, past any first read. Nil for another file, or a CRW that tells
  /// neither.
  static func facts(
    head: [UInt8], fileSize: Int, read: @escaping (Int, Int) -> [UInt8]?
  ) -> ExifFacts? {
    guard let (endian, start) = header(head), start < fileSize else { return nil }
    let reader = RawByteReader(fileSize: fileSize, read: read)
    var ciff = RawCIFF(reader: reader, endian: endian)
    try? ciff.walk(heap: start..<fileSize)
    let facts = ExifFacts(
      taken: ciff.takenSeconds.map { WallClockTime(seconds: Int64($0)) }, model: ciff.model)
    return facts == ExifFacts() ? nil : facts
  }
}
