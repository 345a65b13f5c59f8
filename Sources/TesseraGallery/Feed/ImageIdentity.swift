import TesseraImages
import TesseraTerminal
import TesseraUtilities

/// Stable ids for decoded images, for the terminal's image caches and kitty uploads: the same
/// id always means the same pixels, because it names the request (URL, size, content mode).
enum ImageIdentity {
  /// FNV-1a over the request's identity, the window `crop` (in pixels) when only that part
  /// of the image is shown, and an animation's `frame`: each frame is uploaded once, and
  /// replayed from the terminal's own copy. O(length of the URL).
  static func id(for request: ImageRequest, crop: CellRect? = nil, frame: Int? = nil) -> UInt64 {
    let size = "\(request.targetSize?.width ?? 0)x\(request.targetSize?.height ?? 0)"
    let window = crop.map { "|\($0.x),\($0.y),\($0.width),\($0.height)" } ?? ""
    let hash = StableHash.of(
      "\(request.url.absoluteString)|\(size)|\(request.contentMode)\(window)"
        + (frame.map { "|frame \($0)" } ?? ""))
    // 0 means "no image" to some terminals; keep ids positive and within 32 bits for kitty.
    return (hash & 0x7FFF_FFFF) | 1
  }
}
