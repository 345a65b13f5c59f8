import TesseraUtilities

/// An image as character cells: each cell is "▀" with the foreground its upper pixel and the
/// background its lower pixel, after area-averaging the bitmap to (columns × rows·2).
///
/// Only a crop of the image's cells may be built (the part on screen): a tile as tall as a
/// million rows costs its visible cells, not its size.
///
/// Deterministic by design: a test reading the terminal (tmux `capture-pane -e`) recovers
/// each tile's colours from the cells. Building is O(source pixels under the crop + crop
/// cells); drawing O(cells).
public struct HalfBlockImage: Sendable, CustomStringConvertible {
  public static let upperHalfBlock = "▀"

  /// The whole image's size in cells.
  public let columns: Int
  public let rows: Int
  /// The part of the image (in its own cells, from its top-left) that `cells` covers.
  public let crop: CellRect
  /// Row-major cells, `crop.width × crop.height`.
  public let cells: [Cell]

  /// The cells of `crop` (the whole image when nil) of `bitmap` filling `columns × rows`
  /// cells of `cellSize` pixels: scaled alike on both axes, so where the bitmap's shape and
  /// the cells' differ (a tile rounded to whole rows) its centre is shown, never a stretch,
  /// as every protocol does. Transparent pixels are blended over `background`. Sizes are clamped to
  /// 1…``TerminalLimits/maximumPlacementSide``.
  public init(
    _ bitmap: Bitmap, columns: Int, rows: Int, crop: CellRect? = nil,
    cellSize: PixelSize = PixelSize(width: 10, height: 20), background: RGB = RGB(0, 0, 0)
  ) {
    let side = 1...TerminalLimits.maximumPlacementSide
    let columns = columns.clamped(to: side)
    let rows = rows.clamped(to: side)
    self.columns = columns
    self.rows = rows
    let whole = CellRect(x: 0, y: 0, width: columns, height: rows)
    let crop = crop.map { $0.intersection(whole) } ?? whole
    self.crop = crop
    // A half-block is a cell's width by half its height: the aspect of 2 widths by 1 height.
    let pixels = AreaResampler.fill(
      bitmap, width: columns, height: rows * 2,
      crop: Rect(
        x: crop.x, y: crop.y * 2, width: crop.width, height: crop.height * 2),
      unit: PixelSize(width: cellSize.width * 2, height: cellSize.height))
    let width = crop.width
    var cells: [Cell] = []
    cells.reserveCapacity(crop.width * crop.height)
    func colour(_ x: Int, _ y: Int) -> CellColor {
      let index = (y * width + x) * 4
      let alpha = Int(pixels[index + 3])
      func blend(_ channel: UInt8, _ under: UInt8) -> UInt8 {
        if alpha == 255 { return channel }
        return UInt8((Int(channel) * alpha + Int(under) * (255 - alpha) + 127) / 255)
      }
      return .rgb(
        blend(pixels[index], background.red), blend(pixels[index + 1], background.green),
        blend(pixels[index + 2], background.blue))
    }
    if !pixels.isEmpty {
      for row in 0..<crop.height {
        for column in 0..<width {
          cells.append(
            Cell(
              Self.upperHalfBlock,
              style: CellStyle(
                foreground: colour(column, row * 2), background: colour(column, row * 2 + 1))))
        }
      }
    }
    self.cells = cells
  }

  /// Copies the image into `frame` with its top-left cell at `origin`, showing only the part
  /// inside `clip` (and the frame) that these cells cover.
  public func draw(
    into frame: inout FrameBuffer, at origin: (x: Int, y: Int), clip: CellRect? = nil
  ) {
    guard !cells.isEmpty else { return }
    let covered = CellRect(
      x: origin.x + crop.x, y: origin.y + crop.y, width: crop.width, height: crop.height)
    let area = (clip ?? frame.bounds).intersection(frame.bounds).intersection(covered)
    guard !area.isEmpty else { return }
    for y in area.y..<area.maxY {
      for x in area.x..<area.maxX {
        frame.set(cells[(y - covered.y) * crop.width + (x - covered.x)], x: x, y: y)
      }
    }
  }

  public var description: String { "HalfBlockImage(\(columns)x\(rows), crop \(crop))" }
}
