import TesseraPhotoFormats
import TesseraUtilities

/// Whether a file's first bytes are an animation the detail view plays: a WebP whose VP8X
/// chunk flags animation, or a GIF with a second image. A GIF whose bytes end before its
/// second image would start counts when it has a looping application extension (NETSCAPE2.0
/// or ANIMEXTS1.0): only then, because writers such as ffmpeg add one to a single picture. APNG and AVIF sequences are not
/// counted: Debian 12's libvips shows their first frame only, so no badge promises more.
///
/// - Complexity: O(GIF blocks walked), at most ``maxBlocks``, each a bounded skip over its
///   sub-blocks (at most ``maxSubBlocks`` each); O(1) for WebP.
enum AnimatedImage {
  static let maxBlocks = 64
  static let maxSubBlocks = 4_096

  static func isAnimated(_ bytes: [UInt8]) -> Bool {
    switch ImageSignature(sniffing: bytes) {
    case .webp:
      return bytes.count >= 21 && bytes[12..<16].elementsEqual(Array("VP8X".utf8))
        && bytes[20] & 0x02 != 0
    case .gif: return gifIsAnimated(bytes)
    default: return false
    }
  }

  private static func gifIsAnimated(_ bytes: [UInt8]) -> Bool {
    guard bytes.count >= 13 else { return false }
    var index = 13
    if bytes[10] & 0x80 != 0 { index += 3 << (Int(bytes[10] & 0x07) + 1) }  // global colours
    var images = 0
    var loops = false
    for _ in 0..<maxBlocks {
      guard index < bytes.count else { return loops }
      switch bytes[index] {
      case 0x21:  // extension: label, then sub-blocks
        guard index + 2 < bytes.count else { return loops }
        let label = bytes[index + 1]
        let first = index + 2
        if label == 0xFF, bytes[first] == 11, first + 12 <= bytes.count {
          let application = bytes[(first + 1)..<(first + 12)]
          if application.elementsEqual(Array("NETSCAPE2.0".utf8))
            || application.elementsEqual(Array("ANIMEXTS1.0".utf8))
          {
            loops = true
          }
        }
        guard let end = subBlocksEnd(bytes, from: first) else { return loops }
        index = end
      case 0x2C:  // image: descriptor, local colours, LZW code size, sub-blocks
        images += 1
        if images >= 2 { return true }
        guard index + 10 <= bytes.count else { return loops }
        let packed = bytes[index + 9]
        var data = index + 10
        if packed & 0x80 != 0 { data += 3 << (Int(packed & 0x07) + 1) }
        guard let end = subBlocksEnd(bytes, from: data + 1) else { return loops }
        index = end
      default:  // the trailer (0x3B), or anything else: no more images
        return false
      }
    }
    return false
  }

  /// Where the sub-blocks starting at `start` end (past their zero-length terminator); nil
  /// when they run past the bytes or past ``maxSubBlocks`` (a walk that gives up then
  /// answers as for bytes that end there).
  private static func subBlocksEnd(_ bytes: [UInt8], from start: Int) -> Int? {
    var index = start
    for _ in 0..<maxSubBlocks {
      guard index < bytes.count else { return nil }
      let length = Int(bytes[index])
      index += 1 + length  // at most 256 past an index below count: no overflow
      if length == 0 { return index }
    }
    return nil
  }
}
