import TesseraUtilities

/// Encodes RGBA pixels as a sixel image (`DCS 0;1;0 q … ST`).
///
/// Colours come from a palette chosen for the image (``SixelPalette``): no dithering, so
/// flat and slowly changing areas make long runs of equal sixels. Pixels with alpha below 128
/// stay transparent (P2=1), which also means a colour may paint over pixels that a colour
/// painted later in the same band will cover anyway: within each band the colours go from
/// most to least used, and each colour's sixels take in the pixels of the colours still to
/// come wherever that makes a run longer (see ``BandPainter``). The first colour of a band is
/// then usually one run across it, and the rest are the details on top.
///
/// - Complexity: the palette's cost (see ``SixelPalette``), plus O(pixels + bands × colours
///   in the band × width) for the bands.
package enum SixelEncoder {
  /// The complete sixel sequence for `width × height` RGBA pixels; empty when the sizes do
  /// not match the pixels.
  package static func encode(_ pixels: [UInt8], width: Int, height: Int) -> [UInt8] {
    guard width > 0, height > 0, pixels.count >= width * height * 4 else { return [] }
    let palette = SixelPalette(pixels: pixels, width: width, height: height)
    return encode(palette, width: width, height: height)
  }

  /// The sixel sequence of a quantized image.
  static func encode(_ palette: SixelPalette, width: Int, height: Int) -> [UInt8] {
    var out = ByteWriter(capacity: width * height / 2)
    out.escape("P0;1;0q\"1;1;")
    out.decimal(width)
    out.append(UInt8(ascii: ";"))
    out.decimal(height)
    for (index, colour) in palette.percentages.enumerated() {
      out.append(UInt8(ascii: "#"))
      out.decimal(index)
      out.append(";2;")
      out.decimal(colour.red)
      out.append(UInt8(ascii: ";"))
      out.decimal(colour.green)
      out.append(UInt8(ascii: ";"))
      out.decimal(colour.blue)
    }
    var painter = BandPainter(width: width)
    for top in stride(from: 0, to: height, by: 6) {
      painter.paint(
        palette.indices, top: top, rows: min(6, height - top), colours: palette.percentages.count,
        into: &out)
      if top + 6 < height { out.append(UInt8(ascii: "-")) }
    }
    out.append(terminator)
    return out.bytes
  }

  /// ST, which ends a sixel: also where one is cut short (``FrameCut``).
  static let terminator: [UInt8] = [0x1B, 0x5C]

  /// The offsets just after each graphics new line (`-`) of a sixel sequence: where it may be
  /// closed (``terminator``) with its rows so far drawn. Nothing in the header, the colours or
  /// the runs is a `-`. O(bytes).
  static func rowEnds(in sixel: [UInt8]) -> [Int] {
    guard let body = sixel.firstIndex(of: UInt8(ascii: "q")) else { return [] }
    return sixel.indices[body...].filter { sixel[$0] == UInt8(ascii: "-") }.map { $0 + 1 }
  }

  /// One colour's row of sixels, run-length encoded (`!n c` for runs of 4 or more); trailing
  /// empty sixels are dropped.
  static func writeRuns(_ row: ArraySlice<UInt8>, into out: inout ByteWriter) {
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

/// Writes one band (six pixel rows) colour by colour, reusing its buffers between bands.
///
/// Colours are painted from most to least used in the band. A later colour overwrites an
/// earlier one, so colour k's sixel in a column must set its own pixels, must not set those
/// of colours already painted (or transparent ones), and may set those of colours to come:
/// the painter picks, per column, the value that continues the previous column's run when one
/// is allowed, else all it may set; gaps between two equal values are filled when allowed.
///
/// - Complexity: O(rows × width) to rank the band's pixels, O(colours × width) to paint.
struct BandPainter {
  let width: Int
  /// Per column, six 8-bit ranks (the pixel's colour's position in the band's order; 255
  /// for transparent or absent rows).
  private var ranks: [UInt8]
  private var values: [UInt8]
  private var counts = [Int](repeating: 0, count: 256)
  private var rankOfColour = [UInt8](repeating: 255, count: 256)

  init(width: Int) {
    self.width = width
    ranks = [UInt8](repeating: 255, count: width * 6)
    values = [UInt8](repeating: 0, count: width)
  }

  mutating func paint(
    _ indices: [UInt8], top: Int, rows: Int, colours: Int, into out: inout ByteWriter
  ) {
    var present: [Int] = []
    for row in 0..<rows {
      let start = (top + row) * width
      for x in 0..<width {
        let colour = Int(indices[start + x])
        guard colour != Int(SixelPalette.transparent) else { continue }
        if counts[colour] == 0 { present.append(colour) }
        counts[colour] += 1
      }
    }
    // Most used first; ties by register, so the output is deterministic.
    present.sort { counts[$0] != counts[$1] ? counts[$0] > counts[$1] : $0 < $1 }
    for (rank, colour) in present.enumerated() { rankOfColour[colour] = UInt8(rank) }
    for x in 0..<width {
      for row in 0..<6 {
        let colour = row < rows ? Int(indices[(top + row) * width + x]) : 255
        ranks[x * 6 + row] = colour == 255 ? 255 : rankOfColour[colour]
      }
    }
    for (rank, colour) in present.enumerated() {
      paintColour(rank: UInt8(rank))
      if rank > 0 { out.append(UInt8(ascii: "$")) }
      out.append(UInt8(ascii: "#"))
      out.decimal(colour)
      SixelEncoder.writeRuns(values[...], into: &out)
    }
    for colour in present {
      counts[colour] = 0
      rankOfColour[colour] = 255
    }
  }

  /// Fills `values` with the sixels of the colour ranked `rank`.
  private mutating func paintColour(rank: UInt8) {
    var previous: UInt8 = 0
    var lastPainted = -1
    // Whether every column since the last painted one could take `previous`.
    var gapFillable = true
    for x in 0..<width {
      var own: UInt8 = 0
      var later: UInt8 = 0
      let base = x * 6
      for row in 0..<6 {
        let pixelRank = ranks[base + row]
        if pixelRank == rank {
          own |= 1 << row
        } else if pixelRank != 255, pixelRank > rank {
          later |= 1 << row
        }
      }
      guard own != 0 else {
        values[x] = 0
        if gapFillable, previous & ~later != 0 { gapFillable = false }
        continue
      }
      let allowed = own | later
      var value = allowed
      if previous != 0, own & ~previous == 0, previous & ~allowed == 0 { value = previous }
      if value == previous, lastPainted >= 0, lastPainted < x - 1, gapFillable {
        for gap in (lastPainted + 1)..<x { values[gap] = value }
      }
      values[x] = value
      previous = value
      lastPainted = x
      gapFillable = true
    }
  }
}
