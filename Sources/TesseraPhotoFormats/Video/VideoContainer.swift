import TesseraUtilities

/// The video containers whose headers Tessera reads for a clip's duration and creation time,
/// recognised by their first bytes, never by the file's extension (a phone's `.mp4` may be a
/// QuickTime movie, a `.mkv` renamed `.webm` is common).
///
/// Each container's reader is a bounded walk over one window of the file's bytes that says
/// where to read on when the wanted header lies further on (`VideoScan.next`): a phone writes
/// `moov` after the media data, so an MP4's facts may be gigabytes in.
///
/// - Complexity: `init(sniffing:)` O(1); `scan` O(boxes or elements walked), bounded by each
///   reader's limits.
package enum VideoContainer: CaseIterable, Sendable {
  /// ISO base media (MP4, M4V) and QuickTime (MOV): `QuickTimeMovie`.
  case isoMedia
  /// Matroska and WebM (EBML): `MatroskaInfo`.
  case matroska
  /// RIFF `AVI `: `AVIHeader`.
  case avi

  /// Top-level box types a QuickTime movie without `ftyp` (older cameras) may start with.
  private static let quickTimeFirstBoxes: Set<FourCC> = [
    "moov", "mdat", "wide", "free", "skip", "pnot",
  ]
  private static let ebmlMagic: [UInt8] = [0x1A, 0x45, 0xDF, 0xA3]

  /// The container `bytes` (a file's first bytes) start like; nil for images, including the
  /// still-image ISO media files (HEIF, AVIF, Canon's CR3), which have their own readers.
  package init?(sniffing bytes: [UInt8]) {
    guard ImageSignature(sniffing: bytes) == nil else { return nil }
    var cursor = ByteCursor(bytes, range: 0..<min(bytes.count, 12))
    let first = cursor.fourCC()
    let second = cursor.fourCC()
    let third = cursor.fourCC()
    if bytes.starts(with: Self.ebmlMagic) {
      self = .matroska
    } else if first == "RIFF", third == "AVI " {
      self = .avi
    } else if second == "ftyp", let third, third != "crx " {
      self = .isoMedia
    } else if let second, Self.quickTimeFirstBoxes.contains(second) {
      self = .isoMedia
    } else {
      return nil
    }
  }

  /// The facts in `window`, the bytes of a file of `fileSize` bytes from `offset` on. A
  /// window at offset 0 is the file's start; any other starts where an earlier scan's `next`
  /// said: at a top-level box (ISO media) or a Segment's child element (Matroska). AVI's
  /// header is always in the first bytes, and is never read on.
  package func scan(_ window: [UInt8], at offset: Int, fileSize: Int) -> VideoScan {
    switch self {
    case .isoMedia: QuickTimeMovie.scan(window, at: offset, fileSize: fileSize)
    case .matroska: MatroskaInfo.scan(window, at: offset, fileSize: fileSize)
    case .avi: offset == 0 ? VideoScan(facts: AVIHeader.facts(window)) : VideoScan()
    }
  }
}
