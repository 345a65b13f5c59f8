/// The shapes the gallery lays out. A feed or an image header may claim any shape at all; the
/// layout only ever sees one inside these bounds, so a forged 1×65,535 photo cannot make a row
/// thousands of lines tall (or trap converting an absurd height to `Int`).
enum GalleryLimits {
  /// Height ÷ width of an image as laid out: images are requested at most 2:1 tall (a taller
  /// one is fitted inside that box), and a 100:1 panorama is still one thin strip.
  static let imageHeightPerWidth: ClosedRange<Double> = 0.01...2
  /// The shape assumed for an image whose claimed shape is not a number.
  static let unknownHeightPerWidth = 1.0
  /// Height ÷ width of a terminal cell as the gallery believes it (the terminal reports its
  /// cell size, which `TerminalLimits` already bounds): fonts are between square and 4:1.
  static let cellAspects: ClosedRange<Double> = 0.5...4
  /// The longest side of a requested image box.
  static let maxRequestSide = 1 << 16
  /// Rows a list thumbnail may take.
  static let thumbnailRows: ClosedRange<Int> = 2...64
}
