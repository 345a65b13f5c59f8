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
  /// A palette PNG (`f=100`): an opaque tile's colours cut to at most 255 by
  /// ``SixelPalette``, the quantizer sixel draws with, each pixel one byte before deflate:
  /// about 0.2–0.37× ``png``'s bytes on photo-like tiles, at about 31 dB PSNR on a photo's
  /// grain and near-lossless on smooth tiles, for 3× the CPU (`tessera bench render`). Lossy,
  /// so only where bytes are time: over a slow link (``TerminalRenderer/linkIsSlow``). A tile
  /// with transparency, or one that ``png`` writes smaller (flat colours, clean gradients),
  /// goes as ``png``.
  case palettePNG = "palette-png"

  public var description: String { rawValue }

  /// Whether the payload is a PNG file (`f=100`) rather than pixels.
  var isPNG: Bool { self == .png || self == .palettePNG }

  /// zlib's default level, 6, measured by `tessera bench render` on a screen of 60
  /// photo-like tiles (160×72 px, with libpng's five row filters): level 6 sends 1,172 KB in
  /// 262 ms, 9 the same in 279 ms, 4 sends 1,156 KB in 116 ms, 1 sends 1,386 KB in 56 ms. On
  /// the bench's fixed upload sets (noisy gradients, drawn tiles) level 4 sends 3–10 % more
  /// than the hand-written encoder it replaced, level 6 0.2–7 % less: 6 is the lowest level
  /// that never sends more.
  static let compressionLevel = 6

  /// The payload bytes of `bitmap` before base64; RGB when `opaque`, RGBA otherwise; a
  /// palette PNG of at most `colours` colours. Nil when zlib or libpng fails (out of memory):
  /// the caller sends it raw. O(pixels) plus compression.
  func encode(
    _ bitmap: Bitmap, opaque: Bool, colours: Int = SixelPalette.largestPalette
  ) -> [UInt8]? {
    switch self {
    case .raw: return Self.samples(of: bitmap, opaque: opaque)
    case .zlib:
      return PNGWriter.deflate(
        Self.samples(of: bitmap, opaque: opaque), level: Self.compressionLevel)
    case .png:
      return PNGWriter.encode(
        rgba: bitmap.pixels, width: bitmap.width, height: bitmap.height, dropAlpha: opaque,
        level: Self.compressionLevel, filters: .all)
    case .palettePNG:
      guard opaque else { return Self.png.encode(bitmap, opaque: opaque) }
      let palette = SixelPalette(
        pixels: bitmap.pixels, width: bitmap.width, height: bitmap.height,
        maximumColours: colours.clamped(to: 2...SixelPalette.largestPalette))
      guard
        let indexed = PNGWriter.encode(
          indices: palette.indices, width: bitmap.width, height: bitmap.height,
          palette: palette.percentages.map(Self.byteColour(of:)), level: Self.compressionLevel,
          filters: .none)
      else { return Self.png.encode(bitmap, opaque: opaque) }
      // Flat colours and clean gradients filter to almost nothing losslessly, which indices
      // do not: such a tile goes lossless, smaller and exact. A quick lossless trial (zlib's
      // level 1) tells, so a photo (2.5× the indexed bytes losslessly) does not pay for a
      // full one.
      let trial = PNGWriter.encode(
        rgba: bitmap.pixels, width: bitmap.width, height: bitmap.height, dropAlpha: true,
        level: 1, filters: .all)
      guard let trial, trial.count < indexed.count * 3 / 2 else { return indexed }
      let lossless = Self.png.encode(bitmap, opaque: opaque) ?? trial
      return lossless.count < indexed.count ? lossless : indexed
    }
  }

  /// A sixel palette entry (0–100 per channel) as 0–255 bytes.
  private static func byteColour(
    of entry: (red: Int, green: Int, blue: Int)
  ) -> (red: UInt8, green: UInt8, blue: UInt8) {
    let colour = SixelPalette.colour(of: entry)
    return (
      UInt8(clamping: Int(colour.0.rounded())), UInt8(clamping: Int(colour.1.rounded())),
      UInt8(clamping: Int(colour.2.rounded()))
    )
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
