/// A screen read back from text with SGR colour sequences, as `tmux capture-pane -p -e`
/// prints it: the app's end-to-end tests use it to check what each cell shows.
///
/// Understands SGR 0, 1, 2, 7, 22, 27, 39, 49, 30–37/40–47/90–97/100–107 (as the xterm
/// palette), 38;5/48;5 (the 256 palette) and 38;2/48;2 (24-bit, `;` or `:` separated);
/// skips any other escape sequence. O(bytes).
public struct CapturedScreen: Sendable, CustomStringConvertible {
  public let frame: FrameBuffer

  /// Parses `text`, one screen row per line. Width is the longest line unless given.
  public init(parsing text: String, width: Int? = nil) {
    var rows: [[Cell]] = []
    var row: [Cell] = []
    var pen = CellStyle.plain
    var scalars = Array(text.unicodeScalars)[...]
    var pendingText = ""
    func flushText() {
      for grapheme in pendingText {
        let width = GraphemeWidth.of(grapheme)
        if width == 0 || TerminalText.isUnsafe(grapheme) { continue }
        row.append(Cell(String(grapheme), style: pen))
        if width == 2 { row.append(.continuation(style: pen)) }
      }
      pendingText = ""
    }
    while let scalar = scalars.first {
      scalars = scalars.dropFirst()
      if scalar == "\u{1B}" {
        flushText()
        Self.escape(&scalars, pen: &pen)
      } else if scalar == "\n" {
        flushText()
        rows.append(row)
        row = []
      } else if scalar != "\r" {
        pendingText.unicodeScalars.append(scalar)
      }
    }
    flushText()
    if !row.isEmpty { rows.append(row) }
    let columns = width ?? rows.map(\.count).max() ?? 0
    var frame = FrameBuffer(width: columns, height: rows.count)
    for (y, cells) in rows.enumerated() {
      for (x, cell) in cells.enumerated() where x < columns {
        if cell.isContinuation { continue }
        frame.set(cell, x: x, y: y)
        if x + 1 < columns, x + 1 < cells.count, cells[x + 1].isContinuation {
          frame.set(.continuation(style: cell.style), x: x + 1, y: y)
        }
      }
    }
    self.frame = frame
  }

  public var width: Int { frame.width }
  public var height: Int { frame.height }

  public subscript(x: Int, y: Int) -> Cell { frame[x, y] }

  public func text(ofRow y: Int) -> String { frame.text(ofRow: y) }

  /// The two pixel colours of a half-block image cell (``HalfBlockImage``): the foreground of
  /// "▀" is the upper pixel, the background the lower. Nil for any other cell.
  public func halfBlockPixels(x: Int, y: Int) -> (upper: RGB, lower: RGB)? {
    let cell = frame[x, y]
    guard cell.text == HalfBlockImage.upperHalfBlock,
      case .rgb(let upper) = cell.style.foreground, case .rgb(let lower) = cell.style.background
    else { return nil }
    return (upper, lower)
  }

  public var description: String { "CapturedScreen(\(width)x\(height))" }

  private static func escape(_ scalars: inout ArraySlice<Unicode.Scalar>, pen: inout CellStyle) {
    guard let introducer = scalars.first else { return }
    scalars = scalars.dropFirst()
    guard introducer == "[" else {
      if introducer == "]" || introducer == "P" || introducer == "_" {
        // A string: skip to ST or BEL.
        while let scalar = scalars.first {
          scalars = scalars.dropFirst()
          if scalar == "\u{07}" { return }
          if scalar == "\u{1B}", scalars.first == "\\" {
            scalars = scalars.dropFirst()
            return
          }
        }
      }
      return
    }
    var body = ""
    while let scalar = scalars.first {
      scalars = scalars.dropFirst()
      if (0x40...0x7E).contains(scalar.value) {
        if scalar == "m" { applySGR(body, to: &pen) }
        return
      }
      body.unicodeScalars.append(scalar)
    }
  }

  static func applySGR(_ body: String, to pen: inout CellStyle) {
    // tmux writes 24-bit colour as 38;2;r;g;b; some writers use 38:2::r:g:b.
    let groups = body.split(separator: ";", omittingEmptySubsequences: false).map(String.init)
    var numbers: [[Int]] = groups.map { group in
      group.split(separator: ":", omittingEmptySubsequences: false).map { Int($0) ?? -1 }
    }
    if numbers.isEmpty { numbers = [[0]] }
    var index = 0
    func take() -> Int {
      index += 1
      return index < numbers.count ? (numbers[index].first ?? 0) : -1
    }
    while index < numbers.count {
      let group = numbers[index]
      let code = group.first.map { $0 < 0 ? 0 : $0 } ?? 0
      switch code {
      case 0: pen = .plain
      case 1: pen.attributes.insert(.bold)
      case 2: pen.attributes.insert(.dim)
      case 7: pen.attributes.insert(.inverse)
      case 22: pen.attributes.subtract([.bold, .dim])
      case 27: pen.attributes.remove(.inverse)
      case 30...37: pen.foreground = .rgb(XtermPalette.colour(code - 30))
      case 90...97: pen.foreground = .rgb(XtermPalette.colour(code - 90 + 8))
      case 40...47: pen.background = .rgb(XtermPalette.colour(code - 40))
      case 100...107: pen.background = .rgb(XtermPalette.colour(code - 100 + 8))
      case 39: pen.foreground = .terminalDefault
      case 49: pen.background = .terminalDefault
      case 38, 48:
        var colour: CellColor?
        if group.count > 1 {
          // Colon form: 38:2:[colourspace]:r:g:b or 38:5:n.
          let values = Array(group.dropFirst())
          if values.first == 2, values.count >= 4 {
            let rgb = values.suffix(3).map { UInt8(clamping: $0) }
            colour = .rgb(rgb[0], rgb[1], rgb[2])
          } else if values.first == 5, values.count >= 2 {
            colour = .rgb(XtermPalette.colour(values[1]))
          }
        } else {
          let mode = take()
          if mode == 2 {
            let red = take()
            let green = take()
            let blue = take()
            colour = .rgb(UInt8(clamping: red), UInt8(clamping: green), UInt8(clamping: blue))
          } else if mode == 5 {
            colour = .rgb(XtermPalette.colour(take()))
          }
        }
        if let colour {
          if code == 38 { pen.foreground = colour } else { pen.background = colour }
        }
      default: break
      }
      index += 1
    }
  }
}

/// The xterm 256-colour palette, for captures that carry indexed colours.
enum XtermPalette {
  static func colour(_ index: Int) -> RGB {
    let base: [RGB] = [
      RGB(0, 0, 0), RGB(205, 0, 0), RGB(0, 205, 0), RGB(205, 205, 0), RGB(0, 0, 238),
      RGB(205, 0, 205), RGB(0, 205, 205), RGB(229, 229, 229), RGB(127, 127, 127),
      RGB(255, 0, 0), RGB(0, 255, 0), RGB(255, 255, 0), RGB(92, 92, 255), RGB(255, 0, 255),
      RGB(0, 255, 255), RGB(255, 255, 255),
    ]
    switch index {
    case 0..<16: return base[index]
    case 16..<232:
      let cube = index - 16
      let levels: [UInt8] = [0, 95, 135, 175, 215, 255]
      return RGB(levels[cube / 36], levels[(cube / 6) % 6], levels[cube % 6])
    case 232..<256:
      let grey = UInt8(8 + (index - 232) * 10)
      return RGB(grey, grey, grey)
    default: return RGB(0, 0, 0)
    }
  }
}
