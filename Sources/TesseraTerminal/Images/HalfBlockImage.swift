/// An image as character cells: each cell is "▀" with the foreground its upper pixel and the
/// background its lower pixel, after area-averaging the bitmap to (columns × rows·2).
///
/// Deterministic by design: a test reading the terminal (tmux `capture-pane -e`) recovers
/// each tile's colours from the cells. Building is O(bitmap pixels + cells); drawing O(cells).
public struct HalfBlockImage: Sendable, CustomStringConvertible {
  public static let upperHalfBlock = "▀"

  public let columns: Int
  public let rows: Int
  /// Row-major cells, `columns × rows`.
  public let cells: [Cell]

  /// Transparent pixels are blended over `background`.
  public init(_ bitmap: Bitmap, columns: Int, rows: Int, background: RGB = RGB(0, 0, 0)) {
    self.columns = max(1, columns)
    self.rows = max(1, rows)
    let pixels = AreaResampler.resample(bitmap, width: self.columns, height: self.rows * 2)
    var cells: [Cell] = []
    cells.reserveCapacity(self.columns * self.rows)
    let columns = self.columns
    func colour(_ x: Int, _ y: Int) -> CellColor {
      let index = (y * columns + x) * 4
      let alpha = Int(pixels[index + 3])
      func blend(_ channel: UInt8, _ under: UInt8) -> UInt8 {
        if alpha == 255 { return channel }
        return UInt8((Int(channel) * alpha + Int(under) * (255 - alpha) + 127) / 255)
      }
      return .rgb(
        blend(pixels[index], background.red), blend(pixels[index + 1], background.green),
        blend(pixels[index + 2], background.blue))
    }
    for row in 0..<self.rows {
      for column in 0..<columns {
        cells.append(
          Cell(
            Self.upperHalfBlock,
            style: CellStyle(
              foreground: colour(column, row * 2), background: colour(column, row * 2 + 1))))
      }
    }
    self.cells = cells
  }

  /// Copies the image into `frame` with its top-left cell at `rect`'s origin, showing only
  /// the part inside `clip` (and the frame).
  public func draw(
    into frame: inout FrameBuffer, at origin: (x: Int, y: Int), clip: CellRect? = nil
  ) {
    let area = (clip ?? frame.bounds).intersection(frame.bounds).intersection(
      CellRect(x: origin.x, y: origin.y, width: columns, height: rows))
    guard !area.isEmpty else { return }
    for y in area.y..<area.maxY {
      for x in area.x..<area.maxX {
        frame.set(cells[(y - origin.y) * columns + (x - origin.x)], x: x, y: y)
      }
    }
  }

  public var description: String { "HalfBlockImage(\(columns)x\(rows))" }
}
