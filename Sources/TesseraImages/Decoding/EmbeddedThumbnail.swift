import Foundation
import TesseraPhotoFormats
import TesseraUtilities

/// The small JPEG a camera or phone embeds in a photo's EXIF (IFD1, typically 160×120). For a
/// box it covers (a tile of half-blocks, a 128-px freedesktop.org thumbnail) it stands in for
/// the original: entropy-decoding a 12-MP JPEG costs ~60 ms even at libjpeg's 1/8 scale, the
/// embedded one well under a millisecond.
///
/// The bytes are hostile: the thumbnail must lie wholly inside the EXIF segment (so at most
/// 64 KiB) and start with a JPEG's SOI; it is decoded as a JPEG only. Whether it may stand in
/// (the photo's shape, big enough) is the decoder's call: some cameras pad a 16:9 photo's
/// thumbnail to 4:3 with black bars.
struct EmbeddedThumbnail {
  /// The thumbnail's JPEG bytes.
  var jpeg: Data
  /// The photo's EXIF orientation (IFD0, 1…8), which the thumbnail is stored under too.
  var orientation: Int

  private enum Tag {
    static let orientation = 0x0112
    static let compression = 0x0103
    static let offset = 0x0201
    static let length = 0x0202
  }

  /// EXIF lives in the first APP1 segment, within the file's first bytes.
  static let searchedBytes = 128 * 1024

  /// The thumbnail embedded in `data` (a JPEG), nil when it has none that is well formed.
  ///
  /// - Complexity: O(JPEG segments before APP1 + entries of IFD0 and IFD1), all bounded by
  ///   `ExifStructure`'s limits; the copy of the first ``searchedBytes``.
  init?(in data: Data) {
    let prefix = [UInt8](data.prefix(Self.searchedBytes))
    guard let range = ExifStructure.tiffRange(inJPEG: prefix),
      let exif = ExifStructure(bytes: prefix, range: range), let ifd0 = exif.firstIFD,
      let ifd1 = exif.nextIFD(after: ifd0), ifd1 != ifd0
    else { return nil }
    let orientation = Self.orientation(in: exif, ifd0: ifd0)
    var offset: Int?
    var length: Int?
    for entry in exif.entries(at: ifd1) {
      switch entry.tag {
      case Tag.compression: if exif.integer(entry) != 6 { return nil }  // 6: JPEG
      case Tag.offset: offset = exif.integer(entry)
      case Tag.length: length = exif.integer(entry)
      default: break
      }
    }
    // Both are below 2^32 and the structure below 2^16: the sum cannot overflow.
    guard let offset, let length, length >= 4, offset >= 8, offset + length <= exif.length
    else { return nil }
    let start = exif.base + offset
    guard prefix[start] == 0xFF, prefix[start + 1] == 0xD8 else { return nil }
    jpeg = Data(prefix[start..<(start + length)])
    self.orientation = orientation
  }

  /// The EXIF orientation (1…8) of a JPEG photo, 1 when its EXIF gives none (or no valid one).
  ///
  /// - Complexity: as `init(in:)`, without the thumbnail.
  static func orientation(ofJPEG data: Data) -> Int {
    let prefix = [UInt8](data.prefix(searchedBytes))
    guard let range = ExifStructure.tiffRange(inJPEG: prefix),
      let exif = ExifStructure(bytes: prefix, range: range), let ifd0 = exif.firstIFD
    else { return 1 }
    return orientation(in: exif, ifd0: ifd0)
  }

  private static func orientation(in exif: ExifStructure, ifd0: Int) -> Int {
    var orientation = 1
    for entry in exif.entries(at: ifd0) where entry.tag == Tag.orientation {
      if let value = exif.integer(entry), (1...8).contains(value) { orientation = value }
    }
    return orientation
  }
}
