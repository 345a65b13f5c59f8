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

  /// What a walk over a JPEG's header does at the 4 bytes where a marker should be: the one
  /// reading of marker codes that this walk and ``JPEGHeaderGathering`` share.
  package enum Step: Equatable {
    /// Step over this many bytes: a fill byte (FF FF), or a marker without a length (TEM, RSTn).
    case skip(Int)
    /// The header ends here: the scan (SOS) or the image's end (EOI).
    case end
    /// A segment of `length` bytes after its marker (its length field included, so ≥ 2).
    case segment(marker: UInt8, length: Int)
    /// Anything else: no marker, or a length below 2. The bytes are hostile: stop.
    case malformed

    /// The step at `four`, the bytes at the marker (FF, its code, and the two bytes that would
    /// be its length).
    /// - Complexity: O(1).
    package init(_ four: ArraySlice<UInt8>) {
      guard four.count >= 4, four[four.startIndex] == 0xFF else {
        self = .malformed
        return
      }
      let marker = four[four.startIndex + 1]
      switch marker {
      case 0xFF: self = .skip(1)
      case 0x01, 0xD0...0xD7: self = .skip(2)
      case 0xDA, 0xD9: self = .end
      default:
        let length = Int(four[four.startIndex + 2]) << 8 | Int(four[four.startIndex + 3])
        self = length >= 2 ? .segment(marker: marker, length: length) : .malformed
      }
    }
  }

  package mutating func next() -> Segment? {
    walk: while index <= bytes.count - 4, yielded < Self.maxSegments {
      switch Step(bytes[index..<index + 4]) {
      case .skip(let count): index += count
      case .segment(let marker, let length):
        let end = index + 2 + length  // below count + 65,537: no overflow
        guard end <= bytes.count else { break walk }
        let segment = Segment(marker: marker, payload: (index + 4)..<end)
        index = end
        yielded += 1
        return segment
      case .end, .malformed: break walk
      }
    }
    index = bytes.count
    return nil
  }
}
