import Foundation
import TesseraGeometry
import TesseraUtilities

/// Pixel size read from an image file's first bytes (PNG, GIF, WebP, JPEG, HEIC/AVIF, TIFF, told
/// apart by `ImageSignature`, the one sniffer the pipeline uses too), so a folder's photos
/// have aspect ratios before anything is decoded. Sizes outside `FeedLimits` are "unknown"
/// (nil). Looks at most `FeedLimits.maxHeaderBytes`; the JPEG walk is linear in the segments
/// before the frame header. EXIF rotation is ignored; a HEIF image's own `irot` is not
/// (`HEIFHeader`). A local file's size is read by `pixelSize(of:)`, TesseraPhotoLibrary's
/// (`LocalFile`).
package enum ImageHeader {
  /// The pixel size the header in `bytes` states; only the first `FeedLimits.maxHeaderBytes`
  /// are looked at.
  package static func pixelSize(_ bytes: [UInt8]) -> PixelSize? {
    let bytes =
      bytes.count > FeedLimits.maxHeaderBytes
      ? Array(bytes.prefix(FeedLimits.maxHeaderBytes)) : bytes
    switch ImageSignature(sniffing: bytes) {
    case .png: return png(bytes)
    case .gif: return gif(bytes)
    case .webp: return webp(bytes)
    case .jpeg: return jpeg(bytes)
    case .avif, .heif: return HEIFHeader(bytes: bytes)?.pixelSize
    case .tiff: return ExifStructure(photo: bytes).flatMap(TIFFImageSize.pixelSize(in:))
    case .jxl, nil: return nil
    }
  }

  private static func valid(_ width: Int, _ height: Int) -> PixelSize? {
    PixelSize(validatingWidth: width, height: height)
  }

  private static func bigEndian(_ bytes: [UInt8], _ at: Int, _ count: Int) -> Int {
    (at..<at + count).reduce(0) { $0 << 8 | Int(bytes[$1]) }
  }

  private static func littleEndian(_ bytes: [UInt8], _ at: Int, _ count: Int) -> Int {
    (at..<at + count).reversed().reduce(0) { $0 << 8 | Int(bytes[$1]) }
  }

  private static func png(_ bytes: [UInt8]) -> PixelSize? {
    guard bytes.count >= 24 else { return nil }
    return valid(bigEndian(bytes, 16, 4), bigEndian(bytes, 20, 4))
  }

  /// The frames' size when the logical screen claims more than they cover (`GIFStructure`).
  private static func gif(_ bytes: [UInt8]) -> PixelSize? {
    guard let gif = GIFStructure(bytes) else { return nil }
    let shown = gif.shownSize
    return valid(shown.width, shown.height)
  }

  private static func webp(_ bytes: [UInt8]) -> PixelSize? {
    guard bytes.count >= 30 else { return nil }
    switch String(decoding: bytes[12..<16], as: UTF8.self) {
    case "VP8 ":
      return valid(littleEndian(bytes, 26, 2) & 0x3FFF, littleEndian(bytes, 28, 2) & 0x3FFF)
    case "VP8L":
      let bits = littleEndian(bytes, 21, 4)
      return valid((bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1)
    case "VP8X":
      return valid(littleEndian(bytes, 24, 3) + 1, littleEndian(bytes, 27, 3) + 1)
    default:
      return nil
    }
  }

  private static func jpeg(_ bytes: [UInt8]) -> PixelSize? {
    // SOFn's payload: precision, height, width, components.
    guard let frame = JPEGHeaderSegments(bytes).first(where: \.isFrameHeader)?.payload,
      frame.count >= 5
    else { return nil }
    return valid(
      bigEndian(bytes, frame.lowerBound + 3, 2), bigEndian(bytes, frame.lowerBound + 1, 2))
  }
}
