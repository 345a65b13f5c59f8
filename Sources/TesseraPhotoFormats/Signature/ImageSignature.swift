/// An image format recognised by its first bytes (its "magic number"): the one place Tessera
/// knows them, for the pipeline (a response without a useful content type) and for the feeds
/// (a local file's header, before anything is decoded). Which ``PhotoFormat`` each names,
/// and where it may be decoded from, is the format table's.
package enum ImageSignature: Sendable, Hashable, CaseIterable {
  case jpeg, png, gif, webp, tiff, avif, heif, jxl

  /// The most bytes `init(sniffing:)` looks at.
  package static let maxBytesRead = 16

  /// The format `bytes` start like, or nil: JPEG (`FF D8 FF`), PNG (its 8-byte signature),
  /// GIF (`GIF87a`/`GIF89a`), WebP (`RIFF....WEBP`), TIFF (`II*\0`/`MM\0*`), and AVIF/HEIF
  /// (`....ftyp` with a known brand), JPEG XL (its bare codestream, `FF 0A`, or its box
  /// container's signature box).
  ///
  /// - Complexity: O(1): no more than the first `maxBytesRead` bytes are looked at.
  package init?(sniffing bytes: some Collection<UInt8>) {
    let head = Array(bytes.prefix(Self.maxBytesRead))
    func starts(_ signature: [UInt8], at offset: Int = 0) -> Bool {
      head.count >= offset + signature.count
        && head[offset..<offset + signature.count].elementsEqual(signature)
    }
    func starts(_ text: String, at offset: Int = 0) -> Bool { starts(Array(text.utf8), at: offset) }
    if starts([0xFF, 0xD8, 0xFF]) {
      self = .jpeg
    } else if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
      self = .png
    } else if starts("GIF87a") || starts("GIF89a") {
      self = .gif
    } else if starts("RIFF") && starts("WEBP", at: 8) {
      self = .webp
    } else if starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A]) {
      self = .tiff
    } else if starts([0xFF, 0x0A]) || starts(Self.jpegXLContainer) {
      self = .jxl
    } else if starts("ftyp", at: 4), let brand = Self.brands.first(where: { starts($0.0, at: 8) }) {
      self = brand.1
    } else {
      return nil
    }
  }

  /// The 12-byte signature box every JPEG XL container starts with (a bare codestream
  /// starts `FF 0A`).
  package static let jpegXLContainer: [UInt8] = [
    0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A,
  ]

  /// The ISO base media brands (at offset 8, after `ftyp`) that name a still image format.
  private static let brands: [(String, ImageSignature)] = [
    ("avif", .avif), ("avis", .avif), ("heic", .heif), ("heix", .heif), ("mif1", .heif),
    ("msf1", .heif),
  ]

  /// The format's MIME type, e.g. "image/jpeg" (the format table's).
  package var mimeType: String {
    PhotoFormat(signature: self)?.mimeType ?? "application/octet-stream"
  }
}
