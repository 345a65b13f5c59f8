import TesseraUtilities

/// The header segments of a JPEG held in `bytes`: each marker with the bytes after its length
/// field, in file order, until the scan (SOS) or the image's end (EOI). The one walk over a
/// JPEG's header that EXIF, XMP, IPTC and the frame size are all found by; the bytes are
/// hostile, so the walk stops at anything out of place instead of guessing.
///
/// Stops, yielding nothing more, at a byte that is no marker, a length below 2, a segment
/// that runs past the end of `bytes`, or after ``maxSegments`` segments. Fill bytes (FF FF)
/// and the markers without a length (TEM, RSTn) are stepped over without counting.
///
/// - Complexity: O(segments + fill bytes) for the whole walk; at most ``maxSegments``
///   segments are yielded, and each step moves forward.
package struct JPEGHeaderSegments: Sequence, IteratorProtocol {
  /// Segments yielded before giving up: a camera's header has a dozen.
  package static let maxSegments = FeedLimits.maxJPEGSegments

  /// One header segment: its marker (the byte after FF) and where its payload lies in the
  /// walked bytes (after the 2-byte length; always inside them).
  package struct Segment: Equatable {
    package var marker: UInt8
    package var payload: Range<Int>

    /// A frame header (SOF0…SOF15 but DHT, JPG and DAC, which share the range).
    package var isFrameHeader: Bool {
      (0xC0...0xCF).contains(marker) && marker != 0xC4 && marker != 0xC8 && marker != 0xCC
    }
  }

  private let bytes: [UInt8]
  private var index: Int
  private var yielded = 0

  /// The segments of `bytes`; none when they do not start with SOI (FF D8).
  package init(_ bytes: [UInt8]) {
    self.bytes = bytes
    index = bytes.count >= 4 && bytes[0] == 0xFF && bytes[1] == 0xD8 ? 2 : bytes.count
  }

  package mutating func next() -> Segment? {
    while index <= bytes.count - 4, yielded < Self.maxSegments {
      guard bytes[index] == 0xFF else { break }
      let marker = bytes[index + 1]
      switch marker {
      case 0xFF:  // a fill byte
        index += 1
        continue
      case 0x01, 0xD0...0xD7:
        index += 2
        continue
      case 0xDA, 0xD9:
        index = bytes.count
        return nil
      default: break
      }
      let length = Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
      let end = index + 2 + length  // below count + 65,537: no overflow
      guard length >= 2, end <= bytes.count else { break }
      let segment = Segment(marker: marker, payload: (index + 4)..<end)
      index = end
      yielded += 1
      return segment
    }
    index = bytes.count
    return nil
  }
}
