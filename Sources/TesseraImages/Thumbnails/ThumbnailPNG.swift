import CVipsShim
import Foundation
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

  /// `image` as PNG with `text` in tEXt chunks right after the header; nil when libpng
  /// cannot encode it. Written by libpng at zlib's fast end (a 256-px thumbnail in a
  /// millisecond or two; it is read back far more often than written), without libvips.
  static func encode(_ image: Image, text: [(String, String)]) -> Data? {
    // libpng reads width × height × 4 bytes.
    guard image.width > 0, image.height > 0, image.pixels.count == image.width * image.height * 4
    else { return nil }
    var out: UnsafeMutablePointer<UInt8>?
    var length = 0
    var error = [CChar](repeating: 0, count: 256)
    let status = image.pixels.withUnsafeBufferPointer { pixels in
      tessera_png_encode_rgba(
        pixels.baseAddress, Int32(clamping: image.width), Int32(clamping: image.height), &out,
        &length, &error, error.count)
    }
    guard status == 0, let out else { return nil }
    defer { tessera_png_free(out) }
    let png = [UInt8](UnsafeRawBufferPointer(start: out, count: length))
    // Signature (8) and IHDR (4 + 4 + 13 + 4): the text goes after them.
    let headerEnd = 33
    guard png.count > headerEnd else { return nil }
    var result = Array(png[..<headerEnd])
    for (key, value) in text { result += textChunk(key, value) }
    result += png[headerEnd...]
    return Data(result)
  }

  /// A tEXt chunk: Latin-1 keyword and text (other characters become "?", NUL is dropped).
  static func textChunk(_ key: String, _ value: String) -> [UInt8] {
    func latin1(_ text: String) -> [UInt8] {
      text.unicodeScalars.compactMap { scalar in
        scalar.value == 0 ? nil : scalar.value < 256 ? UInt8(scalar.value) : UInt8(ascii: "?")
      }
    }
    let body = Array("tEXt".utf8) + latin1(key) + [0] + latin1(value)
    return bigEndian(UInt32(body.count - 4)) + body + bigEndian(CRC32.checksum(body))
  }

  private static func bigEndian(_ value: UInt32) -> [UInt8] {
    [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
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
