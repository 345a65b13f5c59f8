/// A sixel tile's preview: the tile at a coarse resolution, each block of
/// ``block`` × ``block`` pixels one colour of a small palette, at the tile's full pixel size.
///
/// Sixel cannot be scaled by the terminal as a kitty upload can, so a preview is made cheap
/// on the wire instead: its blocks are taller than a sixel band and its colours few, so each
/// band is a few long runs (`!12~`) per colour: about 8 kB for a 380 × 280 tile of the link
/// bench's photos (1.6 % of their first screen), a tenth of a 190 × 140 tile under a camera's
/// grain (`SixelPreviewTests`). The full tile is later drawn over it, band by band.
///
/// - Complexity: O(tile pixels ÷ block²) to resample and quantize, plus O(tile pixels) to
///   enlarge the indices.
enum SixelPreview {
  /// The side of a block in pixels: two sixel bands, so the six rows of a band are one colour
  /// in every column.
  static let block = 12
  /// The preview's palette: enough for a recognisable picture, few enough that each colour
  /// has long runs.
  static let colours = 32

  /// The preview of `bitmap` filling `width × height` pixels, quantized.
  static func palette(of bitmap: Bitmap, width: Int, height: Int) -> SixelPalette {
    let smallWidth = (width + block - 1) / block
    let smallHeight = (height + block - 1) / block
    let small = AreaResampler.fill(
      bitmap, width: smallWidth, height: smallHeight,
      crop: Rect(x: 0, y: 0, width: smallWidth, height: smallHeight),
      unit: PixelSize(width: 1, height: 1))
    let coarse = SixelPalette(
      pixels: small, width: smallWidth, height: smallHeight, maximumColours: colours)
    var indices = [UInt8](repeating: SixelPalette.transparent, count: width * height)
    for row in 0..<height {
      let from = (row / block) * smallWidth
      let to = row * width
      for column in 0..<width { indices[to + column] = coarse.indices[from + column / block] }
    }
    return SixelPalette(percentages: coarse.percentages, indices: indices)
  }
}
