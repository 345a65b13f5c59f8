import TesseraUtilities

/// A screen's worth of cells, row-major, with a small text API.
///
/// Storage is one flat array: cell access is O(1); `put` is O(graphemes), `fill` and `box`
/// are O(area) and O(perimeter). Writes outside the buffer or the clip are dropped, never
/// trapped, so layout code may draw tiles that hang off the screen.
public struct FrameBuffer: Equatable, Sendable, CustomStringConvertible {
  public let width: Int
  public let height: Int
  public private(set) var cells: [Cell]

  /// A buffer of `width × height` cells, each within 0…``TerminalLimits`` (4,096), so no
  /// size that slipped past a check can allocate more than 16 M cells.
  public init(width: Int, height: Int, fill: Cell = .blank) {
    self.width = width.clamped(to: 0...TerminalLimits.maximumColumns)
    self.height = height.clamped(to: 0...TerminalLimits.maximumRows)
    cells = Array(repeating: fill, count: self.width * self.height)
  }

  public var bounds: CellRect { CellRect(x: 0, y: 0, width: width, height: height) }

  /// The cell at a position; a blank cell outside the buffer.
  public subscript(x: Int, y: Int) -> Cell {
    get {
      guard x >= 0, x < width, y >= 0, y < height else { return .blank }
      return cells[y * width + x]
    }
    set { set(newValue, x: x, y: y) }
  }

  /// Stores a single-column cell, repairing any wide grapheme it cuts in half.
  public mutating func set(_ cell: Cell, x: Int, y: Int) {
    guard x >= 0, x < width, y >= 0, y < height else { return }
    let index = y * width + x
    breakWideNeighbours(at: index, x: x)
    cells[index] = cell
  }

  /// Writes `text` from (x, y) rightwards, one grapheme per cell (two for wide ones), clipped
  /// by columns to `clip` and the buffer. The text is sanitized first (``TerminalText``:
  /// controls and bidi controls removed), graphemes with nothing visible take no cell, and a
  /// wide grapheme that does not fit before the clip's edge is not drawn in half: its one
  /// column inside becomes a space. Returns the column after the last grapheme written, or
  /// the clip's edge when the text was cut there (the same whether or not row `y` is shown).
  ///
  /// - Complexity: O(n) in the text's length.
  @discardableResult
  public mutating func put(
    _ text: String, x: Int, y: Int, style: CellStyle = .plain, clip: CellRect? = nil
  ) -> Int {
    let area = clip.map { $0.intersection(bounds) } ?? bounds
    let visible = y >= area.y && y < area.maxY
    var column = x
    for grapheme in TerminalText.sanitized(text) {
      if column >= area.maxX { break }
      let columns = GraphemeWidth.of(grapheme)
      guard columns > 0 else { continue }
      if visible {
        draw(grapheme, columns: columns, at: column, y: y, style: style, area: area)
      }
      column += columns
    }
    return column
  }

  private mutating func draw(
    _ grapheme: Character, columns: Int, at column: Int, y: Int, style: CellStyle,
    area: CellRect
  ) {
    if column >= area.x {
      if columns == 2 {
        if column + 1 < area.maxX {
          set(Cell(String(grapheme), style: style), x: column, y: y)
          set(.continuation(style: style), x: column + 1, y: y)
        } else {
          set(Cell(" ", style: style), x: column, y: y)
        }
      } else {
        set(Cell(String(grapheme), style: style), x: column, y: y)
      }
    } else if columns == 2, column + 1 == area.x {
      set(Cell(" ", style: style), x: column + 1, y: y)
    }
  }

  /// Sets every cell of `rect` (clipped to the buffer) to `cell`.
  public mutating func fill(_ rect: CellRect, with cell: Cell = .blank) {
    let area = rect.intersection(bounds)
    guard !area.isEmpty else { return }
    for row in area.y..<area.maxY {
      for column in area.x..<area.maxX { set(cell, x: column, y: row) }
    }
  }

  /// Draws a light box along the edge of `rect`, clipped to `clip` and the buffer.
  public mutating func box(_ rect: CellRect, style: CellStyle = .plain, clip: CellRect? = nil) {
    guard rect.width >= 2, rect.height >= 2 else { return }
    let area = (clip ?? bounds).intersection(bounds)
    func draw(_ text: String, _ column: Int, _ row: Int) {
      if area.contains(x: column, y: row) { set(Cell(text, style: style), x: column, y: row) }
    }
    let right = rect.maxX - 1
    let bottom = rect.maxY - 1
    for column in (rect.x + 1)..<right {
      draw("─", column, rect.y)
      draw("─", column, bottom)
    }
    for row in (rect.y + 1)..<bottom {
      draw("│", rect.x, row)
      draw("│", right, row)
    }
    draw("┌", rect.x, rect.y)
    draw("┐", right, rect.y)
    draw("└", rect.x, bottom)
    draw("┘", right, bottom)
  }

  /// Row `y` as plain text (continuations skipped): for tests and logs.
  public func text(ofRow y: Int) -> String {
    guard y >= 0, y < height else { return "" }
    return cells[(y * width)..<((y + 1) * width)].map(\.text).joined()
  }

  public var description: String { "FrameBuffer(\(width)x\(height))" }

  private mutating func breakWideNeighbours(at index: Int, x: Int) {
    let old = cells[index]
    if old.isContinuation, x > 0 {
      cells[index - 1] = Cell(" ", style: cells[index - 1].style)
    }
    if !old.isContinuation, x + 1 < width, cells[index + 1].isContinuation {
      cells[index + 1] = Cell(" ", style: cells[index + 1].style)
    }
  }
}
