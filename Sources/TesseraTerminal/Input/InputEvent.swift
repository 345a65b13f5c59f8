/// A mouse report (SGR 1006 encoding); `column` and `row` are 0-based cells.
public struct MouseEvent: Hashable, Sendable, CustomStringConvertible {
  public enum Kind: Hashable, Sendable {
    case press(button: Int)
    case release(button: Int)
    case drag(button: Int)
    case move
    case wheelUp, wheelDown, wheelLeft, wheelRight
  }

  public var kind: Kind
  public var column: Int
  public var row: Int
  public var modifiers: KeyModifiers

  public init(kind: Kind, column: Int, row: Int, modifiers: KeyModifiers = []) {
    self.kind = kind
    self.column = column
    self.row = row
    self.modifiers = modifiers
  }

  public var description: String { "mouse \(kind) at \(column),\(row)" }
}

/// The terminal's size in cells and, when it says, in pixels.
public struct TerminalSize: Hashable, Sendable, CustomStringConvertible {
  public var columns: Int
  public var rows: Int
  public var pixelWidth: Int
  public var pixelHeight: Int

  public init(columns: Int, rows: Int, pixelWidth: Int = 0, pixelHeight: Int = 0) {
    self.columns = columns
    self.rows = rows
    self.pixelWidth = pixelWidth
    self.pixelHeight = pixelHeight
  }

  /// One cell's size in pixels, when the pixel size is known, within
  /// ``TerminalLimits/maximumCellPixels``.
  public var cellPixelSize: PixelSize? {
    guard columns > 0, rows > 0, pixelWidth > 0, pixelHeight > 0 else { return nil }
    return TerminalLimits.cellSize(width: pixelWidth / columns, height: pixelHeight / rows)
  }

  public var description: String { "\(columns)x\(rows) (\(pixelWidth)x\(pixelHeight) px)" }
}

/// An answer to one of the queries capability detection sends.
public enum TerminalReply: Hashable, Sendable {
  /// DA1: `CSI ? params c`; parameter 4 means sixel.
  case primaryDeviceAttributes([Int])
  /// XTVERSION: `DCS > | text ST`.
  case version(String)
  /// Kitty graphics: `APC G keys ; message ST`, e.g. id 31, "OK".
  case kittyGraphics(imageID: Int, message: String)
  /// DECRPM: `CSI ? mode ; state $ y` (1 set, 2 reset, 0 unknown mode, 3/4 permanent).
  case modeReport(mode: Int, state: Int)
  /// `CSI 6 ; height ; width t`: one cell's size in pixels.
  case cellPixelSize(PixelSize)
  /// `CSI 8 ; rows ; cols t`: the text area in cells (the answer to `CSI 18 t`).
  case textAreaSize(TerminalSize)
  /// `CSI 4 ; height ; width t`: the text area in pixels (the answer to `CSI 14 t`).
  case textAreaPixels(PixelSize)
}

/// One decoded piece of input.
public enum InputEvent: Hashable, Sendable, CustomStringConvertible {
  case key(Key, KeyModifiers)
  case mouse(MouseEvent)
  /// The window changed size (SIGWINCH, or the mode 2048 in-band report).
  case resize(TerminalSize)
  case focus(Bool)
  /// Bracketed paste: the text as pasted (bounded; see ``InputParser``).
  case paste(String)
  case reply(TerminalReply)

  /// A key with no modifiers.
  public static func key(_ key: Key) -> InputEvent { .key(key, []) }

  public var description: String {
    switch self {
    case .key(let key, let modifiers):
      modifiers.isEmpty ? "key \(key)" : "key \(key) mods \(modifiers.rawValue)"
    case .mouse(let mouse): mouse.description
    case .resize(let size): "resize \(size)"
    case .focus(let focused): "focus \(focused)"
    case .paste(let text): "paste (\(text.utf8.count) bytes)"
    case .reply(let reply): "reply \(reply)"
    }
  }
}
