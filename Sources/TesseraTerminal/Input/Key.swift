/// A key the user pressed.
public enum Key: Hashable, Sendable, CustomStringConvertible {
  /// A printable grapheme: letters, digits, space, `?`, `+`, `-`, …
  case character(Character)
  case up, down, left, right
  case pageUp, pageDown, home, end, insert, delete
  case enter, escape, tab, backTab, backspace
  case function(Int)
  /// Ctrl with a letter (lowercase), e.g. `.control("c")` for Ctrl-C (raw mode delivers it
  /// as a byte, not as SIGINT).
  case control(Character)

  public static let space = Key.character(" ")

  public var description: String {
    switch self {
    case .character(let grapheme): "'\(grapheme)'"
    case .control(let letter): "ctrl-\(letter)"
    case .function(let number): "F\(number)"
    case .up: "up"
    case .down: "down"
    case .left: "left"
    case .right: "right"
    case .pageUp: "pageUp"
    case .pageDown: "pageDown"
    case .home: "home"
    case .end: "end"
    case .insert: "insert"
    case .delete: "delete"
    case .enter: "enter"
    case .escape: "escape"
    case .tab: "tab"
    case .backTab: "backTab"
    case .backspace: "backspace"
    }
  }
}

/// Modifier keys held with a key or mouse event.
public struct KeyModifiers: OptionSet, Hashable, Sendable {
  public let rawValue: UInt8
  public init(rawValue: UInt8) { self.rawValue = rawValue }

  public static let shift = KeyModifiers(rawValue: 1 << 0)
  public static let alt = KeyModifiers(rawValue: 1 << 1)
  public static let control = KeyModifiers(rawValue: 1 << 2)

  /// From an xterm modifier parameter (1 + bitmask: shift 1, alt 2, ctrl 4).
  init(xtermParameter: Int) {
    let mask = max(0, xtermParameter - 1)
    var modifiers: KeyModifiers = []
    if mask & 1 != 0 { modifiers.insert(.shift) }
    if mask & 2 != 0 { modifiers.insert(.alt) }
    if mask & 4 != 0 { modifiers.insert(.control) }
    self = modifiers
  }
}
