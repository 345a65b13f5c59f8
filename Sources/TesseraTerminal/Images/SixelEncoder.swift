import TesseraUtilities

/// Encodes RGBA pixels as a sixel image (`DCS 0;1;0 q … ST`).
///
/// Colours map to a fixed 252-colour palette (6 red × 7 green × 6 blue levels, green finest
/// as the eye is) with 4×4 ordered dithering, by table lookup: no per-image palette search,
/// so encoding is one pass, O(pixels + bands × colours used × width). Only colours the image
/// uses are declared. Pixels with alpha below 128 stay transparent (P2=1).
enum SixelEncoder {
  static let redLevels = 6
  static let greenLevels = 7
  static let blueLevels = 6

  /// `table[threshold][value]`: a channel's dithered level.
  private static func levels(_ count: Int) -> [[UInt8]] {
    (0..<16).map { threshold in
      (0..<256).map { value in
        let scaled = Double(value) * Double(count - 1) / 255 + (Double(threshold) + 0.5) / 16 - 0.5
        return UInt8(Int(clamping: scaled, to: 0...(count - 1)))
      }
    }
  }

  private static let redTable = levels(redLevels)
  private static let greenTable = levels(greenLevels)
  private static let blueTable = levels(blueLevels)
  private static let bayer: [Int] = [0, 8, 2, 10, 12, 4, 14, 6, 3, 11, 1, 9, 15, 7, 13, 5]

  /// The palette entry's colour, as sixel's 0–100 percentages.
  static func percentages(of index: Int) -> (Int, Int, Int) {
    let red = index / (greenLevels * blueLevels)
    let green = (index / blueLevels) % greenLevels
    let blue = index % blueLevels
    return (
      (red * 100 + (redLevels - 1) / 2) / (redLevels - 1),
      (green * 100 + (greenLevels - 1) / 2) / (greenLevels - 1),
      (blue * 100 + (blueLevels - 1) / 2) / (blueLevels - 1)
    )
  }

  /// Palette indices per pixel (255: transparent), dithered.
  static func quantize(_ pixels: [UInt8], width: Int, height: Int) -> [UInt8] {
    var indices = [UInt8](repeating: 255, count: width * height)
    pixels.withUnsafeBufferPointer { pixels in
      indices.withUnsafeMutableBufferPointer { indices in
        for y in 0..<height {
          for x in 0..<width {
            let source = (y * width + x) * 4
            guard pixels[source + 3] >= 128 else { continue }
            let threshold = bayer[(y & 3) * 4 + (x & 3)]
            let red = Int(redTable[threshold][Int(pixels[source])])
            let green = Int(greenTable[threshold][Int(pixels[source + 1])])
            let blue = Int(blueTable[threshold][Int(pixels[source + 2])])
            indices[y * width + x] = UInt8(
              red * greenLevels * blueLevels + green * blueLevels + blue)
          }
        }
      }
    }
    return indices
  }

  /// The complete sixel sequence for `width × height` RGBA pixels.
  static func encode(_ pixels: [UInt8], width: Int, height: Int) -> [UInt8] {
    guard width > 0, height > 0, pixels.count >= width * height * 4 else { return [] }
    let indices = quantize(pixels, width: width, height: height)
    var out = ByteWriter(capacity: width * height / 2)
    out.escape("P0;1;0q\"1;1;")
    out.decimal(width)
    out.append(UInt8(ascii: ";"))
    out.decimal(height)
    var used = [Bool](repeating: false, count: 256)
    for index in indices where index != 255 { used[Int(index)] = true }
    for index in 0..<255 where used[index] {
      let (red, green, blue) = percentages(of: index)
      out.append(UInt8(ascii: "#"))
      out.decimal(index)
      out.append(";2;")
      out.decimal(red)
      out.append(UInt8(ascii: ";"))
      out.decimal(green)
      out.append(UInt8(ascii: ";"))
      out.decimal(blue)
    }
    encodeBands(indices, width: width, height: height, into: &out)
    out.append([0x1B, 0x5C])
    return out.bytes
  }

  private static func encodeBands(
    _ indices: [UInt8], width: Int, height: Int, into out: inout ByteWriter
  ) {
    var slotOfColour = [Int](repeating: -1, count: 256)
    var coloursInBand: [Int] = []
    var bits: [UInt8] = []
    for top in stride(from: 0, to: height, by: 6) {
      let bandRows = min(6, height - top)
      coloursInBand.removeAll(keepingCapacity: true)
      for row in 0..<bandRows {
        let rowStart = (top + row) * width
        for x in 0..<width {
          let colour = Int(indices[rowStart + x])
          if colour == 255 { continue }
          var slot = slotOfColour[colour]
          if slot < 0 {
            slot = coloursInBand.count
            slotOfColour[colour] = slot
            coloursInBand.append(colour)
            let needed = (slot + 1) * width
            if bits.count < needed {
              bits.append(contentsOf: repeatElement(0, count: needed - bits.count))
            }
            for index in (slot * width)..<needed { bits[index] = 0 }
          }
          bits[slot * width + x] |= 1 << row
        }
      }
      for (slot, colour) in coloursInBand.enumerated() {
        if slot > 0 { out.append(UInt8(ascii: "$")) }
        out.append(UInt8(ascii: "#"))
        out.decimal(colour)
        writeRuns(bits[(slot * width)..<((slot + 1) * width)], into: &out)
        slotOfColour[colour] = -1
      }
      if top + 6 < height { out.append(UInt8(ascii: "-")) }
    }
  }

  /// One colour's row of sixels, run-length encoded (`!n c` for runs of 4 or more); trailing
  /// empty sixels are dropped.
  private static func writeRuns(_ row: ArraySlice<UInt8>, into out: inout ByteWriter) {
    var end = row.endIndex
    while end > row.startIndex, row[end - 1] == 0 { end -= 1 }
    var index = row.startIndex
    while index < end {
      let value = row[index]
      var run = 1
      while index + run < end, row[index + run] == value { run += 1 }
      let character = 63 + value
      if run >= 4 {
        out.append(UInt8(ascii: "!"))
        out.decimal(run)
        out.append(character)
      } else {
        for _ in 0..<run { out.append(character) }
      }
      index += run
    }
  }
}
