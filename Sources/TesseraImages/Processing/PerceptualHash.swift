/// A 64-bit difference hash (dHash) of an image: its luminance averaged down to 9 × 8 cells,
/// one bit per pair of neighbours in a row (is the left one brighter?). Two frames of a burst,
/// a recompressed or rescaled copy, differ in a few bits; two different scenes in about half.
/// It is computed from the small thumbnail the gallery decodes anyway, so its cost is the
/// averaging alone.
///
/// - Complexity: O(width × height) to compute; `distance(to:)` is O(1).
public struct PerceptualHash: Hashable, Sendable, CustomStringConvertible {
  /// Bit `row * 8 + column` is set when cell (column, row) is brighter than cell (column + 1,
  /// row).
  public let bits: UInt64

  /// A hash kept from before (its `bits`).
  public init(bits: UInt64) { self.bits = bits }

  /// The most bits two frames of one burst differ by: on 40 seeded synthetic scenes of five
  /// frames each (moved up to 2 %, ±6 % exposure, new grain, 96- and 64-pixel thumbnails),
  /// no consecutive frames differ by more, and 4 of 780 pairs of different scenes come within
  /// it (`PerceptualHashTests`). At 12 bits 8 of 780 would; at 8, 7 of 160 frames would be
  /// missed. On five real handheld bursts (49 frames), 43 of 45 consecutive pairs are within
  /// it and none of 1,000 pairs of different bursts (25 bits at least; docs/DESIGN.md).
  public static let burstThreshold = 10

  /// The hash of `image`'s pixels (alpha ignored: the photos stacked are opaque).
  public init(of image: Image) {
    let columns = 9
    let rows = 8
    var sums = [Double](repeating: 0, count: columns * rows)
    var counts = [Int](repeating: 0, count: columns * rows)
    image.pixels.withUnsafeBufferPointer { pixels in
      for y in 0..<image.height {
        let row = y * rows / image.height
        let rowStart = y * image.width * 4
        for x in 0..<image.width {
          let cell = row * columns + x * columns / image.width
          let offset = rowStart + x * 4
          // Rec. 601 luma: the eye's weights, so a colour shift the eye barely sees moves
          // few bits.
          sums[cell] +=
            0.299 * Double(pixels[offset]) + 0.587 * Double(pixels[offset + 1])
            + 0.114 * Double(pixels[offset + 2])
          counts[cell] += 1
        }
      }
    }
    // An image narrower than nine pixels leaves cells empty: they take their left neighbour's
    // mean, so they set no bit.
    var means = [Double](repeating: 0, count: columns * rows)
    for cell in means.indices {
      means[cell] =
        counts[cell] > 0
        ? sums[cell] / Double(counts[cell]) : cell % columns > 0 ? means[cell - 1] : 0
    }
    var bits: UInt64 = 0
    for row in 0..<rows {
      for column in 0..<(columns - 1)
      where means[row * columns + column]
        > means[row * columns + column + 1]
      {
        bits |= 1 << UInt64(row * 8 + column)
      }
    }
    self.bits = bits
  }

  /// How many of the 64 bits differ: 0 for the same picture, about 32 for unrelated ones.
  public func distance(to other: PerceptualHash) -> Int { (bits ^ other.bits).nonzeroBitCount }

  /// "dHash ff00…": the bits in hexadecimal.
  public var description: String { "dHash " + String(bits, radix: 16) }
}
