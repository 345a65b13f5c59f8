import CVipsShim
import Foundation

/// Thumbnails as the standard wants them: PNG, with the original's facts in text chunks
/// (libvips writes `png-comment-N-KEY` fields as tEXt chunks).
enum ThumbnailPNG {
  /// PNG's fastest useful compression: a 256 px thumbnail is written in a millisecond or two,
  /// and is read back far more often than written.
  static let suffix = ".png[compression=3]"

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

  /// `image` as PNG with `text`; nil when libvips cannot encode it.
  static func encode(_ image: Image, text: [(String, String)]) -> Data? {
    let names = text.enumerated().map { strdup("png-comment-\($0.offset)-\($0.element.0)") }
    let values = text.map { strdup($0.1) }
    defer { (names + values).forEach { free($0) } }
    let fields = zip(names, values).map { name, value in
      TesseraMetadataField(name: name, text: value, number: 0)
    }
    var out: UnsafeMutableRawPointer?
    var length = 0
    let status = image.pixels.withUnsafeBufferPointer { pixels in
      fields.withUnsafeBufferPointer { fields in
        tessera_vips_encode_with_metadata(
          pixels.baseAddress, Int32(clamping: image.width), Int32(clamping: image.height), 4,
          suffix, fields.baseAddress, fields.count, &out, &length)
      }
    }
    guard status == 0, let out else {
      var buffer = [CChar](repeating: 0, count: 256)
      _ = tessera_vips_last_error(&buffer, buffer.count)  // not the next caller's to read
      return nil
    }
    defer { tessera_vips_free(out) }
    return Data(bytes: out, count: length)
  }

  /// The failure record of `original`: one transparent pixel with its URI, its time and why
  /// it failed (`Tessera::Error`, cut to a line).
  static func failure(for original: ThumbnailOriginal, reason: String) -> Data? {
    let pixel = Image(
      width: 1, height: 1, pixels: [0, 0, 0, 0], originalSize: PixelSize(width: 1, height: 1))
    return encode(
      pixel,
      text: [
        ("Thumb::URI", original.name.uri), ("Thumb::MTime", String(original.modified)),
        ("Software", "Tessera"), ("Tessera::Error", String(reason.prefix(200))),
      ])
  }

  /// The MIME type of `data`'s format as libvips names it, or nil.
  static func mimeType(of data: Data) -> String? {
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
