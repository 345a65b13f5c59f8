import TesseraTerminal

/// How far a photo is zoomed and where: the detail view's, and the compare view's, where one
/// zoom and one centre serve every photo so the same part of each shows at the same scale.
struct PhotoZoom: Equatable {
  /// Zoom levels: 1 (fit) to 16 times, so the decode stays within the pipeline's limits.
  static let factors = 1.0...16.0

  /// How many times the fitted size the photo is shown (1 fits it in the box).
  private(set) var factor = 1.0
  /// The point of the photo at the box's centre, as fractions of its width and height.
  private(set) var centre = (x: 0.5, y: 0.5)

  static func == (lhs: PhotoZoom, rhs: PhotoZoom) -> Bool {
    lhs.factor == rhs.factor && lhs.centre == rhs.centre
  }

  var isFitted: Bool { factor == 1 }

  /// Sets the factor (within `factors`); back at 1 the centre is the photo's. False when
  /// nothing changed.
  @discardableResult
  mutating func set(_ factor: Double) -> Bool {
    let bounded = min(max(Self.factors.lowerBound, factor), Self.factors.upperBound)
    guard bounded != self.factor else { return false }
    self.factor = bounded
    if bounded == 1 { centre = (0.5, 0.5) }
    return true
  }

  /// Moves the window by fractions of the box; nothing moves when fitted, and the centre
  /// stays on the photo.
  mutating func pan(x: Double, y: Double) {
    guard factor > 1 else { return }
    let step = 1 / factor
    centre = (min(max(0, centre.x + x * step), 1), min(max(0, centre.y + y * step), 1))
  }

  /// "×2.3": the factor, to one decimal.
  var text: String {
    let tenths = Int((factor * 10).rounded())
    return "×\(tenths / 10).\(tenths % 10)"
  }

  /// Where a photo of `heightPerWidth` (in cells) shows in `box` at this zoom: the cells on
  /// screen, and the window of the image (fractions of its sides) they show. Fitted it is the
  /// whole photo at the top of the box, centred across; zoomed, as much of it as the box
  /// holds, the centre kept inside so no edge shows past the photo.
  func view(
    heightPerWidth: Double, in box: CellRect
  )
    -> (rect: CellRect, window: (x: Double, y: Double, width: Double, height: Double))
  {
    var fitColumns = Double(box.width)
    var fitRows = fitColumns * heightPerWidth
    if fitRows > Double(box.height) {
      fitRows = Double(max(1, box.height))
      fitColumns = fitRows / max(heightPerWidth, 0.01)
    }
    let zoomedColumns = fitColumns * factor
    let zoomedRows = fitRows * factor
    let columns = min(zoomedColumns, Double(box.width))
    let rows = min(zoomedRows, Double(box.height))
    let windowWidth = min(1, columns / max(zoomedColumns, 1e-9))
    let windowHeight = min(1, rows / max(zoomedRows, 1e-9))
    let left = min(max(0, centre.x - windowWidth / 2), 1 - windowWidth)
    let top = min(max(0, centre.y - windowHeight / 2), 1 - windowHeight)
    let cellColumns = Int(clamping: columns.rounded(), to: 1...max(1, box.width))
    let cellRows = Int(clamping: rows.rounded(), to: 1...max(1, box.height))
    let y = factor > 1 ? box.y + (box.height - cellRows) / 2 : box.y
    return (
      CellRect(
        x: box.x + (box.width - cellColumns) / 2, y: y, width: cellColumns, height: cellRows),
      (left, top, windowWidth, windowHeight)
    )
  }
}
