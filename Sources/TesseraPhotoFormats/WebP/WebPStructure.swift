/// What a walk over a WebP's RIFF chunks found: whether its VP8X chunk flags animation, how
/// many animation frames (`ANMF` chunks) follow, and whether the walk reached the end of the
/// RIFF payload or of the bytes first. A flag alone is a claim; the frames are the animation.
///
/// - Complexity: O(chunks walked), at most ``maxChunks``; each chunk is skipped by its stated
///   size without reading it.
package struct WebPStructure: Equatable, Sendable {
  package static let maxChunks = 4_096

  /// The VP8X chunk's animation flag.
  package var flagsAnimation = false
  /// `ANMF` chunks met.
  package var frames = 0
  /// Whether the bytes ended before the RIFF payload did (a prefix, or a file cut short).
  package var bytesEnded = false

  /// Walks `bytes`; nil when they are not a RIFF WebP.
  package init?(_ bytes: [UInt8]) {
    guard bytes.count >= 12, ImageSignature(sniffing: bytes) == .webp else { return nil }
    // RIFF's size counts from byte 8; a lie past the bytes only means the bytes end first.
    let riffEnd = 8 + Int(Self.u32(bytes, 4))
    var index = 12
    for _ in 0..<Self.maxChunks {
      guard index < riffEnd else { return }
      guard index + 8 <= bytes.count else {
        bytesEnded = true
        return
      }
      let size = Int(Self.u32(bytes, index + 4))
      let payload = index + 8
      switch String(decoding: bytes[index..<index + 4], as: UTF8.self) {
      case "VP8X":
        guard payload < bytes.count else {
          bytesEnded = true
          return
        }
        flagsAnimation = bytes[payload] & 0x02 != 0
      case "ANMF": frames += 1
      default: break
      }
      index = payload + size + (size & 1)  // at most 2^32 + 2^32 past a valid index
    }
  }

  /// Whether it animates: two frames or more; or, when `isWholeFile` is false (the bytes are a
  /// prefix that ended before the frames did), the flag with at most one frame seen so far.
  package func isAnimated(isWholeFile: Bool) -> Bool {
    if frames >= 2 { return true }
    return flagsAnimation && bytesEnded && !isWholeFile
  }

  private static func u32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
    (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[at + $1]) << (8 * UInt32($1)) }
  }
}
