import Foundation

/// Recognises image formats from their first bytes, for responses without a content type.
/// O(1): looks at no more than the first 16 bytes.
enum ImageSniffer {
  /// The MIME type the bytes start like, or nil.
  static func imageType(of data: Data) -> String? {
    let head = [UInt8](data.prefix(16))
    func starts(_ bytes: [UInt8], at offset: Int = 0) -> Bool {
      head.count >= offset + bytes.count && Array(head[offset..<offset + bytes.count]) == bytes
    }
    if starts([0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
    if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return "image/png" }
    if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) { return "image/gif" }
    if starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8) { return "image/webp" }
    if starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A]) {
      return "image/tiff"
    }
    if starts(Array("ftyp".utf8), at: 4) {
      for brand in ["avif", "avis", "heic", "heix", "mif1", "msf1"]
      where starts(Array(brand.utf8), at: 8) {
        return brand.hasPrefix("avi") ? "image/avif" : "image/heif"
      }
    }
    return nil
  }
}
