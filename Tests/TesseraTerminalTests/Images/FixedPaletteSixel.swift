@testable import TesseraTerminal

/// The sixel encoder before issue 13, kept as the baseline the new one must beat: a fixed
/// 6×7×6 colour cube with 4×4 ordered dithering, each colour painted exactly.
enum FixedPaletteSixel {
  static let levels = (red: 6, green: 7, blue: 6)
  static let bayer: [Int] = [0, 8, 2, 10, 12, 4, 14, 6, 3, 11, 1, 9, 15, 7, 13, 5]

  static func level(_ value: UInt8, count: Int, threshold: Int) -> Int {
    let scaled = Double(value) * Double(count - 1) / 255 + (Double(threshold) + 0.5) / 16 - 0.5
    return Int(max(0, min(Double(count - 1), scaled.rounded())))
  }

  static func encode(_ pixels: [UInt8], width: Int, height: Int) -> [UInt8] {
    var indices = [UInt8](repeating: 255, count: width * height)
    for y in 0..<height {
      for x in 0..<width {
        let source = (y * width + x) * 4
        guard pixels[source + 3] >= 128 else { continue }
        let threshold = bayer[(y & 3) * 4 + (x & 3)]
        let red = level(pixels[source], count: levels.red, threshold: threshold)
        let green = level(pixels[source + 1], count: levels.green, threshold: threshold)
        let blue = level(pixels[source + 2], count: levels.blue, threshold: threshold)
        indices[y * width + x] = UInt8(red * 42 + green * 6 + blue)
      }
    }
    var out = ByteWriter()
    out.escape("P0;1;0q\"1;1;")
    out.decimal(width)
    out.append(UInt8(ascii: ";"))
    out.decimal(height)
    for index in 0..<252 where indices.contains(UInt8(index)) {
      let percent = [
        (index / 42, levels.red), ((index / 6) % 7, levels.green), (index % 6, levels.blue),
      ].map { ($0.0 * 100 + ($0.1 - 1) / 2) / ($0.1 - 1) }
      out.append("#\(index);2;\(percent[0]);\(percent[1]);\(percent[2])")
    }
    for top in stride(from: 0, to: height, by: 6) {
      var first = true
      for colour in Set(indices[(top * width)..<(min(height, top + 6) * width)]).sorted()
      where colour != 255 {
        var row = [UInt8](repeating: 0, count: width)
        for bit in 0..<min(6, height - top) {
          for x in 0..<width where indices[(top + bit) * width + x] == colour {
            row[x] |= 1 << bit
          }
        }
        if !first { out.append(UInt8(ascii: "$")) }
        first = false
        out.append("#\(colour)")
        SixelEncoder.writeRuns(row[...], into: &out)
      }
      if top + 6 < height { out.append(UInt8(ascii: "-")) }
    }
    out.append([0x1B, 0x5C])
    return out.bytes
  }
}
