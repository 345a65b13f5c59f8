/// Turns one frame into the next on a real terminal, writing only cells that changed.
///
/// It remembers where the terminal's cursor and pen are between frames, so each frame's
/// bytes continue from the last. A diff is O(width × height) comparisons plus O(changed) output.
struct FrameDiffer {
  /// Where the terminal's cursor is, when known (unknown after writing the last column,
  /// whose pending wrap differs between terminals, or after foreign output such as images).
  var cursor: (x: Int, y: Int)?
  /// The terminal's current SGR state, when known.
  var pen: CellStyle?
  /// Whether a short gap between changed cells may be crossed by printing the unchanged
  /// cells again (fewer bytes than a cursor move). Off under sixel: printing a cell wipes
  /// the image pixels on it.
  var reprintsUnchangedCells = true

  /// Appends the bytes that turn `previous` (as it is on screen) into `next`, and returns how
  /// many cells were written. `previous` nil, or of another size, redraws from a cleared
  /// screen. `damaged[i]` true forces cell i to be written (its screen content is unknown).
  /// With `scrolling`, a vertical shift of rows is done by the terminal (a scroll region)
  /// and only what it does not cover is written.
  @discardableResult
  mutating func diff(
    previous: FrameBuffer?, next: FrameBuffer, damaged: [Bool]? = nil, scrolling: Bool = false,
    into out: inout ByteWriter
  ) -> Int {
    var scroll: ScrollDetector.Scroll?
    if scrolling, let previous {
      scroll = ScrollDetector.detect(previous: previous, next: next)
    }
    return diff(previous: previous, next: next, damaged: damaged, scroll: scroll, into: &out)
  }

  /// As ``diff(previous:next:damaged:scrolling:into:)``, with the shift already found (the
  /// renderer finds it from text and images together): `scroll` is done by the terminal
  /// first, then the cells that differ from the scrolled screen are written.
  @discardableResult
  mutating func diff(
    previous: FrameBuffer?, next: FrameBuffer, damaged: [Bool]?, scroll: ScrollDetector.Scroll?,
    into out: inout ByteWriter
  ) -> Int {
    var base: FrameBuffer
    if let previous, previous.width == next.width, previous.height == next.height {
      base = previous
      if let scroll {
        var blankBackground = pen ?? .plain
        blankBackground.background = .terminalDefault
        SGR.transition(from: pen, to: blankBackground, into: &out)
        pen = blankBackground
        ScrollDetector.write(scroll, into: &out)
        cursor = nil
        base = ScrollDetector.apply(scroll, to: previous)
      }
    } else {
      SGR.transition(from: nil, to: .plain, into: &out)
      pen = .plain
      out.escape("[2J")
      base = FrameBuffer(width: next.width, height: next.height)
    }
    let damage = damaged.flatMap { $0.count == next.cells.count ? $0 : nil }
    let width = next.width
    var written = 0
    next.cells.withUnsafeBufferPointer { cells in
      base.cells.withUnsafeBufferPointer { old in
        for row in 0..<next.height {
          var column = 0
          while column < width {
            let index = row * width + column
            let cell = cells[index]
            if cell.isContinuation || (cell == old[index] && !(damage?[index] ?? false)) {
              column += 1
              continue
            }
            moveCursor(to: (column, row), cells: cells, width: width, into: &out)
            write(cell, at: (column, row), width: width, into: &out)
            written += 1
            column += 1
          }
        }
      }
    }
    return written
  }

  /// Moves to `target`, re-printing a short run of unchanged cells instead of a cursor
  /// sequence when that is fewer bytes (a one-cell gap costs 1 byte instead of 3).
  private mutating func moveCursor(
    to target: (x: Int, y: Int), cells: UnsafeBufferPointer<Cell>, width: Int,
    into out: inout ByteWriter
  ) {
    if reprintsUnchangedCells, let cursor, cursor.y == target.y, target.x > cursor.x,
      target.x - cursor.x <= 2, let pen
    {
      var reprintable = true
      for column in cursor.x..<target.x {
        let cell = cells[target.y * width + column]
        let scalars = cell.text.unicodeScalars
        if cell.style != pen || scalars.count != 1 || (scalars.first?.value ?? 0) >= 0x80 {
          reprintable = false
          break
        }
      }
      if reprintable {
        for column in cursor.x..<target.x { out.append(cells[target.y * width + column].text) }
        self.cursor = target
        return
      }
    }
    CursorMotion.move(from: cursor, to: target, into: &out)
    cursor = target
  }

  private mutating func write(
    _ cell: Cell, at position: (x: Int, y: Int), width: Int, into out: inout ByteWriter
  ) {
    SGR.transition(from: pen, to: cell.style, into: &out)
    pen = cell.style
    let advance = Self.appendGrapheme(of: cell, into: &out)
    let nextX = position.x + advance
    cursor = nextX >= width ? nil : (nextX, position.y)
  }

  /// Writes the cell's single grapheme and returns its column count. Cells set directly may
  /// hold anything: only the first grapheme is written, controls and bidi controls become
  /// U+FFFD and a grapheme with nothing visible a space, so the cursor never drifts from what
  /// the differ believes and no cell reorders or drives the terminal.
  private static func appendGrapheme(of cell: Cell, into out: inout ByteWriter) -> Int {
    let utf8 = cell.text.utf8
    if utf8.count == 1, let byte = utf8.first, byte >= 0x20, byte < 0x7F {
      out.append(byte)
      return 1
    }
    guard let grapheme = cell.text.first else { return 0 }
    if TerminalText.isUnsafe(grapheme) {
      out.append("\u{FFFD}")
      return 1
    }
    let width = GraphemeWidth.of(grapheme)
    guard width > 0 else {
      out.append(UInt8(ascii: " "))
      return 1
    }
    out.append(String(grapheme))
    return width
  }
}
