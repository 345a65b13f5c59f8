import Foundation

/// A WebP file without its `EXIF` and `XMP ` chunks, and with the VP8X flags that announce
/// them cleared: libvips 8.14's saver writes an EXIF chunk (orientation, resolution) even
/// when told to strip, and an image written out carries no metadata.
///
/// - Complexity: O(chunks) to walk, O(bytes) to copy.
enum WebPMetadataStrip {
  /// `webp` without metadata chunks; the bytes as they are when they are not a well-formed
  /// WebP file (nothing is guessed).
  static func stripped(_ webp: Data) -> Data {
    let bytes = [UInt8](webp)
    guard bytes.count >= 20, bytes[0..<4].elementsEqual(Array("RIFF".utf8)),
      bytes[8..<12].elementsEqual(Array("WEBP".utf8))
    else { return webp }
    var kept: [UInt8] = []
    kept.reserveCapacity(bytes.count)
    var index = 12
    while index < bytes.count {
      guard index <= bytes.count - 8 else { return webp }
      let size = bytes[index + 4..<index + 8].reversed().reduce(0) { $0 << 8 | Int($1) }
      let end = index + 8 + size + (size & 1)  // size below 2^32: no overflow
      guard end <= bytes.count || (end == bytes.count + 1 && size & 1 == 1) else { return webp }
      let chunk = bytes[index..<min(end, bytes.count)]
      let name = String(decoding: bytes[index..<index + 4], as: UTF8.self)
      if name != "EXIF" && name != "XMP " { kept += chunk }
      index = end
    }
    if kept.count >= 18, kept[0..<4].elementsEqual(Array("VP8X".utf8)) {
      kept[8] &= ~0x0C  // the EXIF (bit 3) and XMP (bit 2) flags
    }
    let riffSize = UInt32(kept.count + 4)
    let header =
      Array("RIFF".utf8) + (0..<4).map { UInt8(truncatingIfNeeded: riffSize >> ($0 * 8)) }
      + Array("WEBP".utf8)
    return Data(header + kept)
  }
}
