import TesseraUtilities

/// A WebP file's metadata chunks: `EXIF` (a TIFF structure, which some writers begin with
/// `Exif\0\0` as in a JPEG) and `XMP `, both only in the extended format, whose `VP8X` chunk
/// flags them.
///
/// The WebP container puts them after the image data, so in a large photo they lie past the
/// first bytes read: the walk then says where the next chunk starts (`MetadataScan.next`),
/// and `LocalPhotoHeaderReader` reads on from there — a few chunk headers, not the pixels.
///
/// - Complexity: O(chunks walked), at most `MetadataChunks.maxChunks`.
package enum WebPChunks {
  /// Longest metadata chunk read (header and payload).
  package static let maxChunkBytes = 64 * 1024 + 8

  private static let exif: FourCC = "EXIF"
  private static let xmp: FourCC = "XMP "
  private static let exifMarker: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0, 0]

  /// The VP8X flags that say EXIF (bit 3) or XMP (bit 2) is present, when `bytes` are a
  /// WebP file's start with a VP8X chunk.
  static func flagsMetadata(_ bytes: [UInt8]) -> Bool {
    guard bytes.count >= 21, ImageSignature(sniffing: bytes) == .webp,
      bytes[12..<16].elementsEqual(Array("VP8X".utf8))
    else { return false }
    return bytes[20] & 0x0C != 0
  }

  /// The metadata in a WebP file's first `bytes`; `next` when VP8X flags metadata that lies
  /// past them.
  package static func metadata(_ bytes: [UInt8]) -> MetadataScan {
    guard ImageSignature(sniffing: bytes) == .webp else { return MetadataScan() }
    var scan = chunks(bytes, from: 12)
    if !flagsMetadata(bytes) { scan.next = nil }
    return scan
  }

  /// The metadata chunks of a window of a WebP file that starts at a chunk's header (`from`).
  package static func chunks(_ bytes: [UInt8], from start: Int) -> MetadataScan {
    let walk = MetadataChunks.walk(
      bytes, from: start, format: .riff, wanted: [exif, xmp], maxWanted: maxChunkBytes)
    var scan = MetadataScan(next: walk.next)
    for chunk in walk.chunks {
      if chunk.type == exif, scan.found.tiff == nil {
        var payload = bytes[chunk.payload]
        if payload.starts(with: exifMarker) { payload = payload.dropFirst(exifMarker.count) }
        scan.found.tiff = Array(payload)
      } else if chunk.type == xmp, scan.found.xmp == nil {
        scan.found.xmp = Array(bytes[chunk.payload])
      }
    }
    return scan
  }
}
