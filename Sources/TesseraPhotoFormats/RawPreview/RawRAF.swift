/// Fujifilm's RAF: a fixed header, `FUJIFILMCCD-RAW ` then the camera's name, whose big-endian
/// 32-bit words at bytes 84 and 88 give the embedded JPEG's offset and length. The JPEG is the
/// camera's full-size (or near) preview, with the photo's EXIF, orientation included, in its
/// own APP1 segment: the RAW's orientation is that one.
///
/// - Complexity: O(1) reads: the header's 92 bytes, and at most ``maxEXIF`` bytes of the
///   JPEG's head for its orientation.
enum RawRAF {
  static let magic = Array("FUJIFILMCCD-RAW ".utf8)
  /// An APP1 segment is at most 64 KiB, after SOI and perhaps an APP0.
  static let maxEXIF = 66 * 1024

  static func matches(_ head: [UInt8]) -> Bool {
    head.count >= magic.count && Array(head.prefix(magic.count)) == magic
  }

  /// The JPEG range the header names; nil when the file ends before the header does.
  static func candidate(
    reader: RawByteReader
  ) throws(RawByteReader.Stop) -> (offset: Int, count: Int)? {
    guard let header = try reader.bytes(at: 84, count: 8),
      let offset = RawEndian.big.u32(header, 0), let count = RawEndian.big.u32(header, 4)
    else { return nil }
    return (offset, count)
  }

  /// The orientation (1…8) in the EXIF of the JPEG at `offset`, 1 when it states none.
  static func orientation(
    ofJPEGAt offset: Int, count: Int, reader: RawByteReader
  ) throws(RawByteReader.Stop) -> Int {
    guard let head = try reader.bytes(at: offset, count: min(count, maxEXIF)),
      let range = ExifStructure.tiffRange(inJPEG: head),
      let exif = ExifStructure(bytes: head, range: range), let ifd0 = exif.firstIFD
    else { return 1 }
    for entry in exif.entries(at: ifd0) where entry.tag == 0x0112 {
      if let value = exif.integer(entry), (1...8).contains(value) { return value }
    }
    return 1
  }
}

/// Minolta's MRW: `\0MRM`, the length of the blocks that follow, then blocks of a four-byte
/// name and a big-endian length; the `\0TTW` block is a whole TIFF structure (IFD0, EXIF)
/// whose offsets count from its own start, walked as any TIFF-based RAW's.
///
/// - Complexity: O(blocks), at most ``maxBlocks`` reads of 8 bytes, then the TIFF walk.
enum RawMRW {
  static let maxBlocks = 16

  static func matches(_ head: [UInt8]) -> Bool {
    head.count >= 8 && head[0..<4].elementsEqual([0, 0x4D, 0x52, 0x4D])
  }

  /// Where the TTW block's TIFF starts and how long it is, when it lies inside the file.
  static func tiffRange(reader: RawByteReader) throws(RawByteReader.Stop) -> Range<Int>? {
    guard let head = try reader.bytes(at: 4, count: 4), let length = RawEndian.big.u32(head, 0)
    else { return nil }
    let end = min(8 + length, reader.fileSize)  // length < 2^32: no overflow
    var position = 8
    for _ in 0..<maxBlocks {
      guard end - position >= 8, let block = try reader.bytes(at: position, count: 8),
        let size = RawEndian.big.u32(block, 4)
      else { return nil }
      let start = position + 8
      guard size <= reader.fileSize - start else {
        reader.reachedPastEnd = true
        return nil
      }
      if block[0..<4].elementsEqual([0, 0x54, 0x54, 0x57]) { return start..<(start + size) }
      position = start + size
    }
    return nil
  }
}
