/// The terminal modes a session turns on, and the bytes that turn them on and off.
public struct TerminalModes: OptionSet, Sendable, Hashable {
  public let rawValue: UInt16
  public init(rawValue: UInt16) { self.rawValue = rawValue }

  public static let alternateScreen = TerminalModes(rawValue: 1 << 0)
  public static let hiddenCursor = TerminalModes(rawValue: 1 << 1)
  /// Button, wheel and drag reports in the SGR (1006) encoding.
  public static let mouse = TerminalModes(rawValue: 1 << 2)
  public static let focusEvents = TerminalModes(rawValue: 1 << 3)
  public static let bracketedPaste = TerminalModes(rawValue: 1 << 4)
  /// Mode 2048: resize reports in the input stream, where the terminal has it.
  public static let inBandResize = TerminalModes(rawValue: 1 << 5)

  public static let gallery: TerminalModes = [
    .alternateScreen, .hiddenCursor, .mouse, .focusEvents, .bracketedPaste, .inBandResize,
  ]

  /// Bytes entering the modes.
  public var enterSequence: [UInt8] {
    var text = ""
    if contains(.alternateScreen) { text += "\u{1B}[?1049h\u{1B}[H\u{1B}[2J" }
    if contains(.hiddenCursor) { text += "\u{1B}[?25l" }
    if contains(.mouse) { text += "\u{1B}[?1000h\u{1B}[?1002h\u{1B}[?1006h" }
    if contains(.focusEvents) { text += "\u{1B}[?1004h" }
    if contains(.bracketedPaste) { text += "\u{1B}[?2004h" }
    if contains(.inBandResize) { text += "\u{1B}[?2048h" }
    return Array(text.utf8)
  }

  /// Bytes leaving them, in reverse, after ending any synchronized update and resetting the
  /// pen, so a restore mid-frame leaves a usable terminal. `freeKittyImages` adds kitty's
  /// delete-all, for sessions that showed kitty images, after an empty last chunk that ends
  /// any upload left loading (else the next program's first upload would continue ours, see
  /// ``KittyCommands/endTransmission(passthrough:into:)``); `throughTmux` sends them through
  /// tmux's passthrough (tmux takes a bare APC for a window title).
  public func leaveSequence(freeKittyImages: Bool = false, throughTmux: Bool = false) -> [UInt8] {
    var kitty = ByteWriter()
    if freeKittyImages {
      KittyCommands.endTransmission(passthrough: throughTmux, into: &kitty)
      KittyCommands.freeAll(passthrough: throughTmux, into: &kitty)
    }
    var text = "\u{1B}[?2026l\u{1B}[0m" + String(decoding: kitty.bytes, as: UTF8.self)
    if contains(.inBandResize) { text += "\u{1B}[?2048l" }
    if contains(.bracketedPaste) { text += "\u{1B}[?2004l" }
    if contains(.focusEvents) { text += "\u{1B}[?1004l" }
    if contains(.mouse) { text += "\u{1B}[?1006l\u{1B}[?1002l\u{1B}[?1000l" }
    if contains(.hiddenCursor) { text += "\u{1B}[?25h" }
    if contains(.alternateScreen) { text += "\u{1B}[?1049l" }
    return Array(text.utf8)
  }
}
