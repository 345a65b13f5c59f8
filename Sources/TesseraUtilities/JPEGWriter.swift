import CJPEG

/// JPEG files written by the system's libjpeg-turbo (``CJPEG``): iTerm2's inline images carry
/// a tile's picture as a file, and a photo's is smallest as a JPEG.
package enum JPEGWriter {
  /// `rgba` (exactly width × height × 4 bytes; alpha ignored) as a baseline JPEG of `quality`
  /// (1–100). Nil when libjpeg refuses (a size that does not add up, no memory).
  /// O(pixels).
  package static func encode(rgba: [UInt8], width: Int, height: Int, quality: Int) -> [UInt8]? {
    guard width > 0, height > 0, let width32 = Int32(exactly: width),
      let height32 = Int32(exactly: height)
    else { return nil }
    var output: UnsafeMutablePointer<UInt8>?
    var length = 0
    var message = [CChar](repeating: 0, count: 256)
    let status = rgba.withUnsafeBufferPointer { pixels in
      tessera_jpeg_encode(
        pixels.baseAddress, pixels.count, width32, height32, Int32(clamping: quality), &output,
        &length, &message, message.count)
    }
    guard status == 0, let output else { return nil }
    defer { tessera_jpeg_encoded_free(output) }
    return Array(UnsafeBufferPointer(start: output, count: length))
  }
}
