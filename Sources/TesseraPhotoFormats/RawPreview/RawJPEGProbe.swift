/// Whether a range of a RAW file that its structure calls a JPEG is a preview to show: it
/// starts with SOI (FF D8) and its first frame header is baseline, extended or progressive
/// (SOF0, SOF1, SOF2), which the image pipeline decodes. The same tags and boxes also name the
/// sensor data itself, stored as lossless JPEG (SOF3, in CR2 and DNG): never a preview.
///
/// Only the header segments are read, a window at a time, never the entropy-coded data; a
/// segment's length is a jump, so a 64 KiB EXIF or ICC segment costs one small read.
///
/// - Complexity: O(``maxSteps``) steps, each reading at most ``window`` bytes when it leaves
///   the window it is in.
enum RawJPEGProbe {
  /// Header segments looked at before the frame header (as for EXIF in a JPEG).
  static let maxSegments = ExifStructure.maxJPEGSegments
  /// Markers and fill bytes looked at, segments included.
  static let maxSteps = 256
  /// Bytes read at a time.
  static let window = 1_024
  /// Longest preview accepted: 64 MiB (a full-size 60-MP JPEG is ~30 MB).
  static let maxLength = 64 << 20

  /// The pixel size in the frame header of the JPEG that occupies `count` bytes from `offset`
  /// of the file; nil when the range is not inside the file, or not a preview (no SOI, lossless
  /// or arithmetic-coded, no frame header before the scan, a zero size).
  static func frameSize(
    offset: Int, count: Int, reader: RawByteReader
  ) throws(RawByteReader.Stop) -> (width: Int, height: Int)? {
    // A range past the end first: a cut-off copy says so, whatever the range's length.
    guard reader.contains(offset: offset, count: count) else {
      reader.reachedPastEnd = true
      return nil
    }
    guard count >= 4, count <= maxLength else { return nil }
    let end = offset + count  // both inside the file: no overflow
    var windowStart = offset
    var bytes: [UInt8] = []
    func byte(_ position: Int) throws(RawByteReader.Stop) -> Int? {
      guard position >= offset, position < end else { return nil }
      if position < windowStart || position >= windowStart + bytes.count {
        guard let read = try reader.bytes(at: position, count: min(window, end - position))
        else { return nil }
        windowStart = position
        bytes = read
      }
      return Int(bytes[position - windowStart])
    }
    guard try byte(offset) == 0xFF, try byte(offset + 1) == 0xD8 else { return nil }
    var position = offset + 2
    var segments = 0
    for _ in 0..<maxSteps {
      guard try byte(position) == 0xFF, let marker = try byte(position + 1) else { return nil }
      switch marker {
      case 0xFF:  // fill byte
        position += 1
        continue
      case 0x01, 0xD0...0xD7:  // TEM, RSTn: no length
        position += 2
        continue
      case 0xD8, 0xD9, 0xDA:  // SOI again, EOI, SOS: no frame header before the scan
        return nil
      default: break
      }
      segments += 1
      guard segments <= maxSegments, let high = try byte(position + 2),
        let low = try byte(position + 3)
      else { return nil }
      let length = high << 8 | low
      guard length >= 2 else { return nil }
      if (0xC0...0xCF).contains(marker), marker != 0xC4, marker != 0xC8, marker != 0xCC {
        // SOFn: length, precision, height, width, components.
        guard marker <= 0xC2, length >= 8, let h1 = try byte(position + 5),
          let h2 = try byte(position + 6), let w1 = try byte(position + 7),
          let w2 = try byte(position + 8)
        else { return nil }
        let height = h1 << 8 | h2
        let width = w1 << 8 | w2
        guard width > 0, height > 0 else { return nil }
        return (width, height)
      }
      position += 2 + length  // below end + 65,537: no overflow
    }
    return nil
  }
}
