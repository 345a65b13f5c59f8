/// Text attributes a cell can carry.
public struct CellAttributes: OptionSet, Hashable, Sendable {
  public let rawValue: UInt8
  public init(rawValue: UInt8) { self.rawValue = rawValue }

  public static let bold = CellAttributes(rawValue: 1 << 0)
  public static let dim = CellAttributes(rawValue: 1 << 1)
  public static let inverse = CellAttributes(rawValue: 1 << 2)
}

/// How a cell is drawn: colours and attributes (the terminal's "pen").
public struct CellStyle: Hashable, Sendable, CustomStringConvertible {
  public var foreground: CellColor
  public var background: CellColor
  public var attributes: CellAttributes

  public init(
    foreground: CellColor = .terminalDefault, background: CellColor = .terminalDefault,
    attributes: CellAttributes = []
  ) {
    self.foreground = foreground
    self.background = background
    self.attributes = attributes
  }

  /// The terminal's default pen: what `SGR 0` selects.
  public static let plain = CellStyle()

  public var description: String {
    "fg \(foreground) bg \(background) attrs \(attributes.rawValue)"
  }
}
