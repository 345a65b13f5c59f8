import TesseraUtilities

/// One chunk or box of a container, found by `MetadataChunks.walk`: its type and where its
/// payload lies in the window walked.
struct MetadataChunk: Equatable {
  var type: FourCC
  var payload: Range<Int>
}

/// The length-prefixed chunk lists that PNG, WebP (RIFF) and JPEG XL (ISO BMFF boxes) are made
/// of, walked over a window of a file's bytes to find the chunks that carry metadata (EXIF,
/// XMP). One walker for the three, because each is read from hostile bytes the same way: every
/// size is compared with the bytes that remain before it is added to anything, so a forged
/// size can neither overflow nor point outside the window.
///
/// A window may be a file's first bytes or a later read: a walk that leaves the window says
/// where the next chunk starts (`Walk.next`, relative to the window), so that the header
/// reader can read a wanted chunk that lies past its first bytes, as it does a HEIF Exif item.
///
/// - Complexity: O(chunks walked), at most ``maxChunks``, plus the bytes of the CRCs checked
///   (PNG metadata chunks only).
enum MetadataChunks {
  /// Chunks looked at in one window: a PNG writes its pixels in many IDAT chunks, each one a
  /// step here, and the rest of such a file is not walked.
  static let maxChunks = 4_096

  enum Format {
    /// Length (big-endian, payload only), type, payload, CRC-32 of type and payload.
    case png
    /// Type, length (little-endian, payload only), payload, a pad byte to an even length.
    case riff
    /// Length (big-endian, the whole box; 1: a 64-bit length follows; 0: to the end), type,
    /// payload (ISO/IEC 14496-12 §4.2).
    case isoBox
  }

  struct Walk {
    /// The chunks of `wanted` types that lie whole within the window, in file order.
    var chunks: [MetadataChunk] = []
    /// Where the first chunk not walked starts, relative to the window, when the walk left the
    /// window (not at an end chunk, a size-0 box, a malformed size or ``maxChunks``): the start
    /// of a wanted chunk of at most `maxWanted` bytes cut by the window, else the end of the
    /// chunk that went past it.
    var next: Int?
  }

  /// The chunks in `bytes[start...]`, as `format` lays them out, of the `wanted` types.
  /// A wanted chunk longer than `maxWanted` (header and payload) is skipped, never read.
  static func walk(
    _ bytes: [UInt8], from start: Int, format: Format, wanted: Set<FourCC>, maxWanted: Int
  ) -> Walk {
    var walk = Walk()
    var index = max(0, start)
    var steps = 0
    while steps < maxChunks {
      steps += 1
      guard index < bytes.count else {
        walk.next = index
        return walk
      }
      var cursor = ByteCursor(bytes, range: index..<bytes.count)
      guard let header = Self.header(&cursor, format: format) else {
        // The chunk's header is cut by the window: read again from its start.
        if bytes.count - index < 16 { walk.next = index }
        return walk
      }
      if format == .png, header.type == "IEND" { return walk }
      // The whole chunk's length from `index`, overflow-free: sizes are at most 2^64 − 1 and
      // are compared, not added, when they exceed what remains.
      let headerLength = cursor.position - index
      let payloadStart = cursor.position
      let available = UInt64(bytes.count - payloadStart)
      guard let payloadLength = header.payload else {
        // A box "to the end of the file": the last one.
        if wanted.contains(header.type) {
          walk.chunks.append(MetadataChunk(type: header.type, payload: payloadStart..<bytes.count))
        }
        return walk
      }
      // Past the payload: PNG's CRC, RIFF's pad byte.
      let trailer: UInt64 = format == .png ? 4 : (format == .riff ? payloadLength & 1 : 0)
      let limit = UInt64(Int32.max)
      guard payloadLength <= limit else { return walk }  // no real chunk is 2 GiB
      let whole = UInt64(headerLength) + payloadLength + trailer
      if payloadLength + trailer <= available {
        if wanted.contains(header.type) {
          let end = payloadStart + Int(payloadLength)
          walk.chunks.append(MetadataChunk(type: header.type, payload: payloadStart..<end))
        }
        index += Int(whole)
        continue
      }
      // The chunk goes past the window.
      let isWanted = wanted.contains(header.type) && whole <= UInt64(max(0, maxWanted))
      walk.next = isWanted ? index : index + Int(whole)
      return walk
    }
    return walk
  }

  /// A chunk's type and payload length (nil: to the end of the file), the cursor left at the
  /// payload; nil when the header is not all there or its size is impossible.
  private static func header(
    _ cursor: inout ByteCursor, format: Format
  ) -> (type: FourCC, payload: UInt64?)? {
    switch format {
    case .png:
      guard let length = cursor.unsigned(size: 4), let type = cursor.fourCC() else { return nil }
      return (type, length)
    case .riff:
      guard let type = cursor.fourCC(), let le = cursor.unsigned(size: 4) else { return nil }
      let length = (0..<4).reduce(UInt64(0)) { $0 << 8 | (le >> (8 * UInt64($1)) & 0xFF) }
      return (type, length)
    case .isoBox:
      let start = cursor.position
      guard let size32 = cursor.unsigned(size: 4), let type = cursor.fourCC() else { return nil }
      var size = size32
      if size32 == 1 {
        guard let large = cursor.unsigned(size: 8) else { return nil }
        size = large
      } else if size32 == 0 {
        return (type, nil)
      }
      let headerLength = UInt64(cursor.position - start)
      guard size >= headerLength else { return nil }
      return (type, size - headerLength)
    }
  }
}
