import TesseraUtilities

/// Every bound on numbers that reach this module from outside: the terminal's replies and the
/// kernel's window size (which a forged report or a hostile terminal may set to anything), the
/// input stream, and the sizes the app asks images to be drawn at.
///
/// A number is clamped here, where it enters, before any arithmetic: a forged `CSI 48 t`
/// claiming 10⁶ × 10⁶ cells would otherwise become a 10¹²-cell frame buffer.
public enum TerminalLimits {
  /// The most columns (and rows) a screen may have: 4,096 each, 16 M cells at most.
  public static let maximumColumns = 4_096
  public static let maximumRows = 4_096
  /// The most pixels one side of a cell may have.
  public static let maximumCellPixels = 512
  /// The most pixels a whole window side may report (the largest screen of the largest cells).
  public static let maximumWindowPixels = maximumColumns * maximumCellPixels
  /// The largest numeric parameter a control sequence keeps; more digits stop counting.
  public static let maximumParameter = 1_000_000
  /// The most parameters a control sequence keeps; the rest are dropped.
  public static let maximumParameters = 32
  /// Longest escape sequence or string (DCS/APC/OSC) kept waiting for its end.
  public static let maximumSequenceLength = 4_096
  /// Longest bracketed paste kept, in bytes; bytes past it are dropped until the paste ends.
  public static let maximumPasteLength = 1 << 20
  /// The largest side, in cells, an image placement may have (16 M: a 1×65,535 image in a
  /// full-width list row is far below it); larger ones are not drawn, so the pixel arithmetic
  /// after them (sides × 512 px) never overflows.
  public static let maximumPlacementSide = 1 << 24
  /// The largest side of a bitmap the app hands over: 65,535 pixels, as for feed images.
  public static let maximumBitmapSide = 65_535

  /// Cells: 1 … maximum.
  static let columnRange = 1...maximumColumns
  static let rowRange = 1...maximumRows
  /// One cell side: 1 … 512 pixels.
  static let cellPixelRange = 1...maximumCellPixels
  /// A window side in pixels: 0 (unknown) … the maximum.
  static let windowPixelRange = 0...maximumWindowPixels

  /// A window size as reported, clamped; nil when it reports no cells at all (0 or less).
  static func windowSize(
    columns: Int, rows: Int, pixelWidth: Int, pixelHeight: Int
  )
    -> TerminalSize?
  {
    guard columns > 0, rows > 0 else { return nil }
    return TerminalSize(
      columns: columns.clamped(to: columnRange), rows: rows.clamped(to: rowRange),
      pixelWidth: pixelWidth.clamped(to: windowPixelRange),
      pixelHeight: pixelHeight.clamped(to: windowPixelRange))
  }

  /// A cell size as reported, clamped; nil when a side is 0 or less (unknown).
  static func cellSize(width: Int, height: Int) -> PixelSize? {
    guard width > 0, height > 0 else { return nil }
    return PixelSize(
      width: width.clamped(to: cellPixelRange), height: height.clamped(to: cellPixelRange))
  }
}
