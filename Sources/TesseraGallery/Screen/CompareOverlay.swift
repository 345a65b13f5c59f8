import TesseraCollection
import TesseraImages
import TesseraTerminal

/// The compare view's own state (`c`): two to four photos side by side, each in its pane with
/// its own image slot, under one zoom and one centre, so the same part of every frame of a
/// burst shows at the same scale; and the pane the culling keys act on. The screen draws it
/// (`GalleryScreen.drawCompare`).
@MainActor
final class CompareOverlay {
  /// At most four: a fifth pane would leave each photo too small to judge its sharpness.
  static let photoLimit = 4

  /// The photos compared, left to right (then top to bottom).
  var items: [GalleryItem] = []
  /// The pane the culling keys, `m` and Space act on.
  var focus = 0
  /// One zoom for every pane.
  var zoom = PhotoZoom()
  /// Each pane's slot and request, by pane.
  let slots = (0..<photoLimit).map { _ in ImageSlot<TesseraImages.Image>() }
  var requests: [ImageRequest?] = Array(repeating: nil, count: photoLimit)
  /// The last picture each photo showed: while a zoom's larger decode loads, the smaller one
  /// stays rather than a "loading" line.
  var shown: [String: (image: TesseraImages.Image, request: ImageRequest)] = [:]

  var focusedItem: GalleryItem? { items.indices.contains(focus) ? items[focus] : nil }

  /// Back to the grid: the loads are cancelled and the pictures let go.
  func close() {
    guard !items.isEmpty else { return }
    items = []
    focus = 0
    zoom = PhotoZoom()
    shown = [:]
    for slot in slots { slot.prepareForReuse() }
    requests = Array(repeating: nil, count: Self.photoLimit)
  }

  /// The panes of `count` photos in `area`: in one row, or in two when the photos (of
  /// `heightPerWidth`, in cells) show larger so, as four landscape photos on a tall screen do.
  /// Each pane keeps its last two rows for the photo's caption and a gap.
  ///
  /// - Complexity: O(`count`).
  static func panes(count: Int, in area: CellRect, heightPerWidth: Double) -> [CellRect] {
    guard count > 0, area.width > 0, area.height > 0 else { return [] }
    let arrangements = (1...min(2, count)).map { rows in (rows, (count + rows - 1) / rows) }
    func size(_ rows: Int, _ columns: Int) -> (width: Int, height: Int) {
      (max(1, (area.width - (columns - 1)) / columns), max(1, area.height / rows))
    }
    // The fitted photo's area in cells: the larger wins.
    func shownArea(_ rows: Int, _ columns: Int) -> Double {
      let pane = size(rows, columns)
      let boxHeight = Double(max(1, pane.height - 2))
      let fitColumns = min(Double(pane.width), boxHeight / max(heightPerWidth, 0.01))
      return fitColumns * fitColumns * heightPerWidth
    }
    let (rows, columns) =
      arrangements.max { shownArea($0.0, $0.1) < shownArea($1.0, $1.1) } ?? (1, count)
    let pane = size(rows, columns)
    return (0..<count).map { index in
      CellRect(
        x: area.x + (index % columns) * (pane.width + 1),
        y: area.y + (index / columns) * pane.height,
        width: pane.width, height: pane.height)
    }
  }

  /// The photo's box in its pane: all but the caption's row and the gap below it.
  static func imageBox(inPane pane: CellRect) -> CellRect {
    CellRect(x: pane.x, y: pane.y, width: pane.width, height: max(1, pane.height - 2))
  }
}
