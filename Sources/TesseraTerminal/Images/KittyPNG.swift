/// A PNG encoder for kitty's `f=100` uploads: 8-bit RGB (opaque bitmaps) or RGBA, each row
/// filtered with whichever of PNG's five filters leaves the smallest residuals (the usual
/// heuristic, as libpng's), then deflated by ``KittyDeflate``. Filtering is what makes a
/// photo compress: neighbouring pixels are alike, so their differences are small numbers a
/// Huffman code writes in a few bits.
///
/// - Complexity: O(pixels) for filtering (five candidates per row), plus deflate's cost.
enum KittyPNG {
  static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

  /// `bitmap` as a PNG file; RGB when `opaque` (alpha dropped), RGBA otherwise.
  static func encode(_ bitmap: Bitmap, opaque: Bool) -> [UInt8] {
    let channels = opaque ? 3 : 4
    let filtered = filter(bitmap, channels: channels)
    var png = signature
    var header: [UInt8] = []
    append32(UInt32(bitmap.width), to: &header)
    append32(UInt32(bitmap.height), to: &header)
    header += [8, opaque ? 2 : 6, 0, 0, 0]
    chunk("IHDR", header, into: &png)
    chunk("IDAT", KittyDeflate.zlib(filtered), into: &png)
    chunk("IEND", [], into: &png)
    return png
  }

  /// The pixel bytes without alpha when `channels` is 3. O(pixels).
  static func channels(of bitmap: Bitmap, count channels: Int) -> [UInt8] {
    guard channels == 3 else { return bitmap.pixels }
    let pixels = bitmap.width * bitmap.height
    var raw = [UInt8](repeating: 0, count: pixels * 3)
    bitmap.pixels.withUnsafeBufferPointer { source in
      raw.withUnsafeMutableBufferPointer { target in
        for pixel in 0..<pixels {
          target[pixel * 3] = source[pixel * 4]
          target[pixel * 3 + 1] = source[pixel * 4 + 1]
          target[pixel * 3 + 2] = source[pixel * 4 + 2]
        }
      }
    }
    return raw
  }

  /// Rows prefixed by their filter type and filtered.
  static func filter(_ bitmap: Bitmap, channels: Int) -> [UInt8] {
    let raw = self.channels(of: bitmap, count: channels)
    let stride = bitmap.width * channels
    var out = [UInt8]()
    out.reserveCapacity((stride + 1) * bitmap.height)
    var candidate = [UInt8](repeating: 0, count: stride)
    var best = [UInt8](repeating: 0, count: stride)
    raw.withUnsafeBufferPointer { raw in
      for row in 0..<bitmap.height {
        let line = row * stride
        let above = line - stride
        var bestType: UInt8 = 0
        var bestScore = Int.max
        for type: UInt8 in 0...4 {
          var score = 0
          for index in 0..<stride {
            let left = index >= channels ? Int(raw[line + index - channels]) : 0
            let up = row > 0 ? Int(raw[above + index]) : 0
            let upLeft = row > 0 && index >= channels ? Int(raw[above + index - channels]) : 0
            let predictor: Int
            switch type {
            case 0: predictor = 0
            case 1: predictor = left
            case 2: predictor = up
            case 3: predictor = (left + up) / 2
            default: predictor = paeth(left, up, upLeft)
            }
            let residual = UInt8(truncatingIfNeeded: Int(raw[line + index]) - predictor)
            candidate[index] = residual
            // Residuals as signed bytes: small either side of zero is cheap.
            score += residual < 128 ? Int(residual) : 256 - Int(residual)
          }
          if score < bestScore {
            bestScore = score
            bestType = type
            swap(&best, &candidate)
          }
        }
        out.append(bestType)
        out.append(contentsOf: best)
      }
    }
    return out
  }

  static func paeth(_ left: Int, _ up: Int, _ upLeft: Int) -> Int {
    let estimate = left + up - upLeft
    let toLeft = abs(estimate - left)
    let toUp = abs(estimate - up)
    let toUpLeft = abs(estimate - upLeft)
    if toLeft <= toUp, toLeft <= toUpLeft { return left }
    return toUp <= toUpLeft ? up : upLeft
  }

  private static func chunk(_ type: String, _ data: [UInt8], into png: inout [UInt8]) {
    append32(UInt32(data.count), to: &png)
    let typeAndData = Array(type.utf8) + data
    png += typeAndData
    append32(CRC32.checksum(typeAndData), to: &png)
  }

  private static func append32(_ value: UInt32, to bytes: inout [UInt8]) {
    for shift in [24, 16, 8, 0] { bytes.append(UInt8(truncatingIfNeeded: value >> shift)) }
  }
}

/// The CRC-32 of PNG chunks (polynomial 0xEDB88320, reflected). O(n).
enum CRC32 {
  private static let table: [UInt32] = (0..<256).map { index in
    var value = UInt32(index)
    for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
    return value
  }

  static func checksum(_ bytes: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
    return crc ^ 0xFFFF_FFFF
  }
}
