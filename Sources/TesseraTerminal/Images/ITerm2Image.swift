import TesseraUtilities

/// iTerm2's inline image escape code (`OSC 1337 ; File=…`), as iTerm2, WezTerm, VS Code's
/// terminal, Konsole and mlterm read it: an image file's own bytes, base64, shown at the
/// cursor over a number of cells.
///
/// A tile's pixels go as a JPEG (libjpeg-turbo) when they are opaque — a photo's fewest bytes
/// of any protocol — and as a PNG (libpng) where alpha matters. They are already at the cells'
/// pixel size and shape, so `preserveAspectRatio=0` only stops the terminal from fitting
/// them again with bands of its own.
package enum ITerm2Image {
  /// The JPEG quality of photo tiles: several dB above sixel's palette at a fraction of its
  /// bytes (`tessera bench render`).
  package static let photoQuality = 85

  /// The escape code drawing `width × height` RGBA pixels over `columns × rows` cells from
  /// the cursor; empty when the pixels cannot be encoded. O(pixels) plus the encoder.
  static func sequence(
    rgba: [UInt8], width: Int, height: Int, columns: Int, rows: Int, jpegQuality: Int
  ) -> [UInt8] {
    guard let file = encode(rgba: rgba, width: width, height: height, jpegQuality: jpegQuality)
    else { return [] }
    var out = ByteWriter(capacity: file.count * 4 / 3 + 96)
    out.escape("]1337;File=inline=1;size=")
    out.decimal(file.count)
    out.append(";width=")
    out.decimal(max(1, columns))
    out.append(";height=")
    out.decimal(max(1, rows))
    out.append(";preserveAspectRatio=0;doNotMoveCursor=1:")
    var encoded: [UInt8] = []
    encoded.reserveCapacity(file.count * 4 / 3 + 4)
    Base64.encode(file[...], into: &encoded)
    out.append(encoded)
    out.append(0x07)
    return out.bytes
  }

  /// The file: JPEG when every pixel is opaque, PNG otherwise.
  package static func encode(
    rgba: [UInt8], width: Int, height: Int, jpegQuality: Int
  ) -> [UInt8]? {
    guard width > 0, height > 0, rgba.count == width * height * 4 else { return nil }
    var opaque = true
    var index = 3
    while index < rgba.count {
      if rgba[index] != 255 {
        opaque = false
        break
      }
      index += 4
    }
    if opaque {
      return JPEGWriter.encode(rgba: rgba, width: width, height: height, quality: jpegQuality)
    }
    return PNGWriter.encode(
      rgba: rgba, width: width, height: height, dropAlpha: false, level: 6, filters: .all)
  }
}
