import TesseraUtilities

/// How a kitty upload's pixels are written into the escape code (all base64, as the
/// protocol wants). Measured by `tessera bench render` on photo-like tiles: PNG with libpng's
/// per-row filters is the smallest, so it is the default.
public enum KittyPayloadFormat: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
  /// Raw RGB (opaque) or RGBA bytes: `f=24`/`f=32`.
  case raw
  /// The raw bytes deflated in a zlib stream by zlib: `o=z`.
  case zlib
  /// A PNG file written by libpng: `f=100`.
  case png

  public var description: String { rawValue }

  /// zlib's default level, 6, measured by `tessera bench render` on a screen of 60
  /// photo-like tiles (160×72 px, with libpng's five row filters): level 6 sends 1,172 KB in
  /// 262 ms, 9 the same in 279 ms, 4 sends 1,156 KB in 116 ms, 1 sends 1,386 KB in 56 ms. On
  /// the bench's fixed upload sets (noisy gradients, drawn tiles) level 4 sends 3–10 % more
  /// than the hand-written encoder it replaced, level 6 0.2–7 % less: 6 is the lowest level
  /// that never sends more.
  static let compressionLevel = 6

  /// The payload bytes of `bitmap` before base64; RGB when `opaque`, RGBA otherwise. Nil when
  /// zlib or libpng fails (out of memory): the caller sends it raw. O(pixels) plus compression.
  func encode(_ bitmap: Bitmap, opaque: Bool) -> [UInt8]? {
    switch self {
    case .raw: return Self.samples(of: bitmap, opaque: opaque)
    case .zlib:
      return PNGWriter.deflate(
        Self.samples(of: bitmap, opaque: opaque), level: Self.compressionLevel)
    case .png:
      return PNGWriter.encode(
        rgba: bitmap.pixels, width: bitmap.width, height: bitmap.height, dropAlpha: opaque,
        level: Self.compressionLevel, filters: .all)
    }
  }

  /// Bytes on the wire to upload `bitmap` in this format (escape codes, chunking and base64
  /// included): what `tessera bench render` compares.
  public func uploadBytes(for bitmap: Bitmap) -> Int {
    var out = ByteWriter()
    KittyCommands.transmit(id: 1, bitmap: bitmap, format: self, passthrough: false, into: &out)
    return out.count
  }

  /// The pixel bytes, without alpha when `opaque`. O(pixels).
  static func samples(of bitmap: Bitmap, opaque: Bool) -> [UInt8] {
    guard opaque else { return bitmap.pixels }
    let pixels = bitmap.width * bitmap.height
    return [UInt8](unsafeUninitializedCapacity: pixels * 3) { target, count in
      bitmap.pixels.withUnsafeBufferPointer { source in
        for pixel in 0..<pixels {
          target[pixel * 3] = source[pixel * 4]
          target[pixel * 3 + 1] = source[pixel * 4 + 1]
          target[pixel * 3 + 2] = source[pixel * 4 + 2]
        }
      }
      count = pixels * 3
    }
  }
}
