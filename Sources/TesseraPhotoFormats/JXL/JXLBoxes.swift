import TesseraUtilities

/// A JPEG XL file's metadata boxes in its ISO BMFF container (ISO/IEC 18181-2): `Exif` (a
/// 4-byte big-endian offset to the TIFF header, then the TIFF structure, as HEIF's Exif item)
/// and `xml ` (XMP). A bare codestream (`FF 0A`) has no metadata boxes.
///
/// Boxes compressed with Brotli (`brob`, holding `Exif` or `xml `) are not read: that would
/// mean inflating hostile bytes with a decoder the project does not link; such a file sorts by
/// its modification time as before.
///
/// libjxl writes metadata boxes before the codestream, but a box may follow it; the walk then
/// says where the next box starts (`MetadataScan.next`) and `LocalPhotoHeaderReader` reads on.
///
/// - Complexity: O(boxes walked), at most `MetadataChunks.maxChunks`.
package enum JXLBoxes {
  /// Longest metadata box read (header and payload).
  package static let maxBoxBytes = 64 * 1024 + 16

  /// The 12-byte signature box every JPEG XL container starts with.
  static let signature = ImageSignature.jpegXLContainer

  private static let exif: FourCC = "Exif"
  private static let xml: FourCC = "xml "

  package static func isContainer(_ bytes: [UInt8]) -> Bool { bytes.starts(with: signature) }

  /// The metadata in a JPEG XL container's first `bytes`.
  package static func metadata(_ bytes: [UInt8]) -> MetadataScan {
    guard isContainer(bytes) else { return MetadataScan() }
    return boxes(bytes, from: 0)
  }

  /// The metadata boxes of a window of a JPEG XL file that starts at a box's header (`from`).
  package static func boxes(_ bytes: [UInt8], from start: Int) -> MetadataScan {
    let walk = MetadataChunks.walk(
      bytes, from: start, format: .isoBox, wanted: [exif, xml], maxWanted: maxBoxBytes)
    var scan = MetadataScan(next: walk.next)
    for box in walk.chunks {
      if box.type == exif, scan.found.tiff == nil {
        scan.found.tiff = HEIFHeader.tiff(inExifItem: Array(bytes[box.payload]))
      } else if box.type == xml, scan.found.xmp == nil {
        scan.found.xmp = Array(bytes[box.payload])
      }
    }
    return scan
  }
}
