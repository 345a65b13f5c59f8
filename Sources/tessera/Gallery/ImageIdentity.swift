import TesseraImages

/// Stable ids for decoded images, for the terminal's image caches and kitty uploads: the same
/// id always means the same pixels, because it names the request (URL, size, content mode).
enum ImageIdentity {
  /// FNV-1a over the request's identity. O(length of the URL).
  static func id(for request: ImageRequest) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    func mix(_ text: String) {
      for byte in text.utf8 {
        hash ^= UInt64(byte)
        hash &*= 0x0000_0100_0000_01b3
      }
    }
    mix(request.url.absoluteString)
    mix("|\(request.targetSize?.width ?? 0)x\(request.targetSize?.height ?? 0)")
    mix("|\(request.contentMode)")
    // 0 means "no image" to some terminals; keep ids positive and within 32 bits for kitty.
    return (hash & 0x7FFF_FFFF) | 1
  }
}
