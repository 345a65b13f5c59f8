/// How a kitty upload's pixels are written into the escape code (all base64, as the
/// protocol wants). Measured by `tessera bench render` on photo-like tiles: PNG with per-row
/// filters is the smallest, so it is the default.
public enum KittyPayloadFormat: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
  /// Raw RGB (opaque) or RGBA bytes: `f=24`/`f=32`.
  case raw
  /// The raw bytes deflated in a zlib stream: `o=z`.
  case zlib
  /// A PNG file: `f=100`.
  case png

  public var description: String { rawValue }

  /// The payload bytes of `bitmap` before base64. O(pixels) plus compression.
  func encode(_ bitmap: Bitmap, opaque: Bool) -> [UInt8] {
    switch self {
    case .raw: KittyPNG.channels(of: bitmap, count: opaque ? 3 : 4)
    case .zlib: KittyDeflate.zlib(KittyPNG.channels(of: bitmap, count: opaque ? 3 : 4))
    case .png: KittyPNG.encode(bitmap, opaque: opaque)
    }
  }

  /// Bytes on the wire to upload `bitmap` in this format (escape codes, chunking and base64
  /// included): what `tessera bench render` compares.
  public func uploadBytes(for bitmap: Bitmap) -> Int {
    var out = ByteWriter()
    KittyCommands.transmit(id: 1, bitmap: bitmap, format: self, passthrough: false, into: &out)
    return out.count
  }
}
