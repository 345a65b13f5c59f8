import TesseraUtilities

/// A TIFF file's XMP and IPTC, which it keeps in IFD0 entries rather than in segments:
/// XMLPacket (700, BYTE or UNDEFINED) and IPTC-NAA (33723, UNDEFINED, or LONG as Photoshop
/// writes it). A scanner's or an editor's TIFF has its date there and no Exif IFD at all.
///
/// An XMP packet cut by the bytes read (or past `XMPDates.maxPacketBytes`) is kept as far as
/// it goes, and then does not parse: it tells no date. An IPTC block must be whole.
///
/// - Complexity: O(IFD0's entries), at most `ExifStructure.maxIFDEntries`, plus the copy of
///   the two blocks, at most `XMPDates.maxPacketBytes` and the bytes read.
enum TIFFMetadataTags {
  private static let xmpTag = 700
  private static let iptcTag = 33_723

  /// The XMP and IPTC blocks of the TIFF at the start of `bytes`; empty when there are none.
  static func blocks(_ bytes: [UInt8]) -> EmbeddedMetadata {
    var found = EmbeddedMetadata()
    guard ImageSignature(sniffing: bytes) == .tiff, let tiff = ExifStructure(photo: bytes),
      let ifd0 = tiff.firstIFD
    else { return found }
    for entry in tiff.entries(at: ifd0) {
      if entry.tag == xmpTag, found.xmp == nil {
        found.xmp = value(of: entry, in: tiff, cutTo: XMPDates.maxPacketBytes)
      } else if entry.tag == iptcTag, found.iim == nil {
        found.iim = value(of: entry, in: tiff, cutTo: nil)
      }
    }
    return found
  }

  /// The bytes of a BYTE, UNDEFINED or LONG entry: inline when they fit its 4 bytes, else at
  /// the offset it holds. With `cutTo`, at most that many, and as many as there are; without,
  /// all of them or nil.
  private static func value(
    of entry: ExifStructure.Entry, in tiff: ExifStructure, cutTo limit: Int?
  ) -> [UInt8]? {
    let width: Int
    switch entry.type {
    case 1, 7: width = 1
    case 4: width = 4
    default: return nil
    }
    // `count` is at most 2^32 − 1: the product fits an Int on 64-bit platforms.
    let length = entry.count * width
    guard length > 0 else { return nil }
    let start: Int
    if length <= 4 {
      start = entry.offset + 8
    } else {
      guard let offset = tiff.u32(entry.offset + 8) else { return nil }
      start = offset
    }
    guard start < tiff.length else { return nil }
    let available = tiff.length - start
    let count: Int
    if let limit {
      count = min(length, available, limit)
    } else {
      guard length <= available else { return nil }
      count = length
    }
    return Array(tiff.bytes[(tiff.base + start)..<(tiff.base + start + count)])
  }
}
