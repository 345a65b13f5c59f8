/// A 5×7 bitmap font for the digits 0–9, drawn into generated images so a person sees which
/// image a cell shows. Each glyph is seven rows of five bits, most significant bit leftmost.
enum DigitFont {
  static let glyphWidth = 5
  static let glyphHeight = 7
  /// Glyph plus one column of spacing.
  static let advance = 6

  private static let glyphs: [[UInt8]] = [
    [0b01110, 0b10001, 0b10011, 0b10101, 0b11001, 0b10001, 0b01110],  // 0
    [0b00100, 0b01100, 0b00100, 0b00100, 0b00100, 0b00100, 0b01110],  // 1
    [0b01110, 0b10001, 0b00001, 0b00010, 0b00100, 0b01000, 0b11111],  // 2
    [0b11110, 0b00001, 0b00001, 0b01110, 0b00001, 0b00001, 0b11110],  // 3
    [0b00010, 0b00110, 0b01010, 0b10010, 0b11111, 0b00010, 0b00010],  // 4
    [0b11111, 0b10000, 0b11110, 0b00001, 0b00001, 0b10001, 0b01110],  // 5
    [0b00110, 0b01000, 0b10000, 0b11110, 0b10001, 0b10001, 0b01110],  // 6
    [0b11111, 0b00001, 0b00010, 0b00100, 0b01000, 0b01000, 0b01000],  // 7
    [0b01110, 0b10001, 0b10001, 0b01110, 0b10001, 0b10001, 0b01110],  // 8
    [0b01110, 0b10001, 0b10001, 0b01111, 0b00001, 0b00010, 0b01100],  // 9
  ]

  /// Whether the font pixel at (`column`, `row`) of `digit` is ink.
  static func ink(_ digit: Int, column: Int, row: Int) -> Bool {
    guard glyphs.indices.contains(digit), (0..<glyphWidth).contains(column),
      (0..<glyphHeight).contains(row)
    else { return false }
    return glyphs[digit][row] >> (glyphWidth - 1 - column) & 1 == 1
  }

  /// Width in font pixels of a run of `count` digits.
  static func width(of count: Int) -> Int { count * advance - 1 }
}
