import TesseraUtilities

/// The header of a JPEG whose segments go on past the bytes first read: phones write tens of
/// kilobytes of their own segments (depth maps, HDR gain maps, maker data) before the EXIF and
/// the frame header, so a fixed first read finds neither. The walk goes on in the file, segment
/// by segment: a segment the header needs (the first EXIF, the first XMP, Photoshop's IPTC,
/// the frame header) is read whole, every other one is stepped over by its length, unread.
/// What was read is gathered into one small JPEG (SOI and those segments), which the header
/// readers walk as they walk any JPEG: EXIF's offsets are relative to its own segment, so
/// moving it does not change what it says.
///
/// - Complexity: O(segments and fill bytes walked), at most `JPEGHeaderSegments.maxSegments`;
///   one read of 4 bytes and one of 40 per segment past `head`, and at most four segments' payloads (each
///   under 64 KiB).
package enum JPEGHeaderGathering {
  private static let exifMarker: [UInt8] = Array("Exif\0\0".utf8)
  private static let photoshopMarker: [UInt8] = Array("Photoshop 3.0\0".utf8)
  /// Bytes of a segment's payload enough to tell what it holds (XMP's header is the longest).
  private static let peekBytes = 40

  /// The gathered header of the JPEG of `fileSize` bytes whose first bytes are `head`, reading
  /// the rest with `read(offset, count)` (nil: the read failed, which ends the walk). Nil when
  /// `head` is no JPEG, or the walk found no frame header.
  package static func gather(
    head: [UInt8], fileSize: Int, read: (_ offset: Int, _ count: Int) -> [UInt8]?
  ) -> [UInt8]? {
    guard head.count >= 4, head[0] == 0xFF, head[1] == 0xD8, fileSize >= head.count else {
      return nil
    }
    func bytes(at offset: Int, count: Int) -> [UInt8]? {
      guard offset >= 0, count >= 0, count <= fileSize - offset else { return nil }
      if offset + count <= head.count { return Array(head[offset..<offset + count]) }
      return read(offset, count).flatMap { $0.count == count ? $0 : nil }
    }
    var gathered: [UInt8] = [0xFF, 0xD8]
    var wanted = Wanted()
    var offset = 2
    // Every step counts, fill bytes too: each one past `head` is a read.
    var steps = 0
    while steps < JPEGHeaderSegments.maxSegments, let start = bytes(at: offset, count: 4) {
      steps += 1
      let marker: UInt8
      let length: Int
      switch JPEGHeaderSegments.Step(start[...]) {
      case .skip(let count):
        offset += count
        continue
      case .end, .malformed: return wanted.frame ? gathered : nil
      case .segment(let code, let segmentLength): (marker, length) = (code, segmentLength)
      }
      let isFrame = JPEGHeaderSegments.Segment(marker: marker, payload: 0..<0).isFrameHeader
      // What a segment is shows in its first bytes: only a wanted one is read whole.
      if let peek = bytes(at: offset + 4, count: min(length - 2, Self.peekBytes)),
        let kind = wanted.kind(marker: marker, isFrame: isFrame, payload: peek[...])
      {
        // A wanted segment cut by the file's end ends the walk: it is not counted as found.
        guard let whole = bytes(at: offset, count: 2 + length) else { break }
        gathered += whole
        wanted.found.insert(kind)
      }
      offset += 2 + length
    }
    return wanted.frame ? gathered : nil
  }

  /// Which of the segments a header reader needs were gathered already.
  private struct Wanted {
    enum Kind { case exif, xmp, iptc, frame }
    var found: Set<Kind> = []

    var frame: Bool { found.contains(.frame) }

    /// What the segment whose payload starts with `payload` holds, when it is one still
    /// wanted; nil otherwise.
    func kind(marker: UInt8, isFrame: Bool, payload: ArraySlice<UInt8>) -> Kind? {
      let kind: Kind? =
        if isFrame {
          .frame
        } else if marker == 0xE1, payload.starts(with: JPEGHeaderGathering.exifMarker) {
          .exif
        } else if marker == 0xE1, JPEGMetadataSegments.xmpPacket(payload) != nil {
          .xmp
        } else if marker == 0xED, payload.starts(with: JPEGHeaderGathering.photoshopMarker) {
          .iptc
        } else {
          nil
        }
      return kind.flatMap { found.contains($0) ? nil : $0 }
    }
  }
}
