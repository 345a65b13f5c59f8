import CVipsShim
import Foundation
import TesseraPhotoFormats
import TesseraUtilities

/// Thumbnails as the standard wants them: PNG, with the original's facts in text chunks
/// (libvips writes `png-comment-N-KEY` fields as tEXt chunks).
enum ThumbnailPNG {
  /// The text of a thumbnail of `original`, `originalSize` upright, in `mimeType`.
  static func text(
    for original: ThumbnailOriginal, originalSize: PixelSize, mimeType: String?
  ) -> [(String, String)] {
    var text = [
      ("Thumb::URI", original.name.uri),
      ("Thumb::MTime", String(original.modified)),
      ("Thumb::Size", String(original.byteCount)),
      ("Thumb::Image::Width", String(originalSize.width)),
      ("Thumb::Image::Height", String(originalSize.height)),
      ("Software", "Tessera"),
    ]
    if let mimeType { text.insert(("Thumb::Mimetype", mimeType), at: 3) }
    return text
  }

  /// `image` as PNG with `text` in tEXt chunks before its pixels; nil when libpng cannot
  /// encode it. Written by libpng at zlib's fast end with Sub filtering (a 256-px thumbnail in
  /// a millisecond or two; it is read back far more often than written), without libvips.
  static func encode(_ image: Image, text: [(String, String)]) -> Data? {
    guard image.width > 0, image.height > 0, image.pixels.count == image.width * image.height * 4
    else { return nil }
    let chunks = text.map {
      PNGWriter.Text(key: latin1($0.0, limit: 79), value: latin1($0.1, limit: 65_535))
    }
    return PNGWriter.encode(
      rgba: image.pixels, width: image.width, height: image.height, dropAlpha: false, level: 1,
      filters: .fast, text: chunks
    ).map { Data($0) }
  }

  /// `text` as Latin-1 bytes, at most `limit` of them (other characters become "?", NUL is
  /// dropped: a tEXt chunk holds Latin-1 and its keyword ends at the first NUL).
  static func latin1(_ text: String, limit: Int) -> [UInt8] {
    Array(
      text.unicodeScalars.lazy.compactMap { scalar in
        scalar.value == 0 ? nil : scalar.value < 256 ? UInt8(scalar.value) : UInt8(ascii: "?")
      }
      .prefix(limit))
  }

  /// The failure record of `original`: one transparent pixel with its URI, its time and why
  /// it failed (`Tessera::Error`, cut to a line).
  static func failure(for original: ThumbnailOriginal, reason: String) -> Data? {
    guard
      let pixel = try? Image(
        width: 1, height: 1, pixels: [0, 0, 0, 0], originalSize: PixelSize(width: 1, height: 1))
    else { return nil }
    return encode(
      pixel,
      text: [
        ("Thumb::URI", original.name.uri), ("Thumb::MTime", String(original.modified)),
        ("Software", "Tessera"), ("Tessera::Error", String(reason.prefix(200))),
      ])
  }

  /// The MIME type of `data`'s format as libvips names it, or nil. A JPEG is known by its
  /// first bytes, so its thumbnail is written without libvips.
  static func mimeType(of data: Data) -> String? {
    if ImageSignature(sniffing: data.prefix(ImageSignature.maxBytesRead)) == .jpeg {
      return ImageSignature.jpeg.mimeType
    }
    var name = [CChar](repeating: 0, count: 64)
    _ = data.withUnsafeBytes { tessera_vips_format($0.baseAddress, $0.count, &name, name.count) }
    let format = String(
      decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    return switch format {
    case "JPEG": "image/jpeg"
    case "PNG": "image/png"
    case "WebP": "image/webp"
    case "GIF": "image/gif"
    case "HEIF": "image/heif"
    case "AVIF": "image/avif"
    case "TIFF": "image/tiff"
    case "JPEG XL": "image/jxl"
    default: nil
    }
  }
}
