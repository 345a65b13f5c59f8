import Foundation

/// A PNG without its text chunks (tEXt, zTXt, iTXt), for the decoder: libvips' PNG loader
/// (libpng) inflates every compressed text chunk into the image's metadata, each up to
/// libpng's 8 MB, however many there are, before the first pixel; a 160 KB file of twenty
/// such chunks cost 360 MB and 2 s of `vipsheader`, a 1 MB one 2.3 GB. The decoder needs none
/// of them (EXIF, with the orientation, is `eXIf`; colour is `iCCP`), so they are left out
/// before libvips sees the bytes: the budget for text is then none at all, whatever the file.
///
/// - Complexity: O(chunks) to walk, O(n) to copy when there is text to leave out; no chunk is
///   inflated.
package enum PNGTextStrip {
  private static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
  private static let textTypes: Set<[UInt8]> = [
    Array("tEXt".utf8), Array("zTXt".utf8), Array("iTXt".utf8),
  ]

  /// `png` with every text chunk left out, all else as it was, byte for byte; nil when the
  /// bytes are no PNG, hold no text chunk, or a chunk's length runs past them (libvips then
  /// says what is wrong with the file itself).
  package static func strippingText(_ png: Data) -> Data? {
    guard png.count > signature.count, png.starts(with: signature) else { return nil }
    return png.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> Data? in
      var kept: [Range<Int>] = []
      var keptStart = signature.count
      var offset = signature.count
      var removed = false
      while offset < raw.count {
        // Length (4), type (4), data (length), CRC (4): the length is checked against the
        // bytes left before it is added to anything.
        guard raw.count - offset >= 12 else { return nil }
        let length =
          Int(raw[offset]) << 24 | Int(raw[offset + 1]) << 16 | Int(raw[offset + 2]) << 8
          | Int(raw[offset + 3])
        guard length <= raw.count - offset - 12 else { return nil }
        let end = offset + 12 + length
        if textTypes.contains(Array(raw[(offset + 4)..<(offset + 8)])) {
          kept.append(keptStart..<offset)
          keptStart = end
          removed = true
        }
        offset = end
      }
      guard removed else { return nil }
      kept.append(keptStart..<raw.count)
      var stripped = Data(signature)
      stripped.reserveCapacity(kept.reduce(signature.count) { $0 + $1.count })
      for range in kept where !range.isEmpty {
        stripped.append(contentsOf: UnsafeRawBufferPointer(rebasing: raw[range]))
      }
      return stripped
    }
  }
}
