/// The animations libvips cannot play (Debian 12's 8.14 reads one picture of each), which
/// the gallery plays through ffmpeg instead: an APNG (a PNG whose `acTL` chunk, before its
/// first `IDAT`, announces two frames or more) and an AVIF or HEIF image sequence (an ISO
/// file whose `ftyp` names the `avis` or `msf1` brand).
///
/// - Complexity: ``init(_:)`` is O(chunks before the first `IDAT`), each skipped by its
///   length; at most the bytes given are looked at.
package struct ImageSequence: Equatable, Sendable {
  package enum Kind: Equatable, Sendable {
    case apng
    /// An AVIF (`avis`) or HEIF (`msf1`) image sequence.
    case isoSequence
  }

  package let kind: Kind
  /// How many times it plays, as the file says (0: forever). An ISO sequence's is not read
  /// (its edit list): it plays forever.
  package let plays: Int
  /// The frames an APNG announces (the `acTL` count); nil for an ISO sequence.
  package let announcedFrames: Int?

  private static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

  /// Reads the first bytes of a file (a prefix is enough: both markers come first); nil for
  /// any other file, a single-frame APNG, or bytes that end before the answer.
  package init?(_ bytes: [UInt8]) {
    if bytes.starts(with: Self.pngSignature) {
      guard let control = Self.animationControl(bytes) else { return nil }
      (kind, announcedFrames, plays) = (.apng, control.frames, control.plays)
    } else if Self.isISOSequence(bytes) {
      (kind, announcedFrames, plays) = (.isoSequence, nil, 0)
    } else {
      return nil
    }
  }

  /// The `acTL` chunk's frame and play counts, when it comes before the first `IDAT` (the
  /// APNG rule) and counts two frames or more.
  private static func animationControl(_ bytes: [UInt8]) -> (frames: Int, plays: Int)? {
    var offset = pngSignature.count
    while offset + 8 <= bytes.count {
      let length = Int(bigEndian32(bytes, at: offset))
      let type = bytes[(offset + 4)..<(offset + 8)]
      if type.elementsEqual("IDAT".utf8) || type.elementsEqual("IEND".utf8) { return nil }
      if type.elementsEqual("acTL".utf8) {
        guard length == 8, offset + 16 <= bytes.count else { return nil }
        let frames = Int(bigEndian32(bytes, at: offset + 8))
        let plays = Int(bigEndian32(bytes, at: offset + 12))
        // The counts are 31-bit by the specification; anything else is no APNG.
        guard frames >= 2, frames <= Int(Int32.max), plays <= Int(Int32.max) else { return nil }
        return (frames, plays)
      }
      // Length, type, data and CRC; a length past 2^31 is no PNG.
      guard length <= Int(Int32.max) else { return nil }
      offset += 12 + length
    }
    return nil
  }

  /// Whether the `ftyp` box (first in the file) names `avis` or `msf1` as its major brand or
  /// one of its compatible brands (within its first 64 bytes).
  private static func isISOSequence(_ bytes: [UInt8]) -> Bool {
    guard bytes.count >= 16, bytes[4..<8].elementsEqual("ftyp".utf8) else { return false }
    let size = Int(bigEndian32(bytes, at: 0))
    let end = min(bytes.count, max(16, min(size, 64)))
    return stride(from: 8, to: end - 3, by: 4).contains { brand in
      brand != 12  // the minor version
        && (bytes[brand..<(brand + 4)].elementsEqual("avis".utf8)
          || bytes[brand..<(brand + 4)].elementsEqual("msf1".utf8))
    }
  }

  private static func bigEndian32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
    bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | UInt32($1) }
  }
}
