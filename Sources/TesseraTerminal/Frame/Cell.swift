/// One character cell: a grapheme (or none, for the right half of a wide grapheme) and its style.
public struct Cell: Hashable, Sendable, CustomStringConvertible {
  /// One extended grapheme cluster; empty only for the continuation of a wide grapheme.
  public var text: String
  public var style: CellStyle

  public init(_ text: String = " ", style: CellStyle = .plain) {
    self.text = text
    self.style = style
  }

  public static let blank = Cell()

  /// The right half of a two-column grapheme: never written, the terminal advances over it.
  static func continuation(style: CellStyle) -> Cell { Cell("", style: style) }

  public var isContinuation: Bool { text.isEmpty }

  public var description: String { "'\(text)' \(style)" }
}
