import TesseraCollection
import TesseraImages
import TesseraTerminal
import TesseraUtilities

/// The help card and the detail view (Enter on an item; Esc returns to the same place).
extension GalleryScreen {
  static let helpLines = [
    "j k ↓ ↑  wheel     scroll (presses add up)",
    "h l ← →            move the selection",
    "Space PgDn / PgUp  page down / up",
    "g Home / G End     first / last item",
    "Enter  click       open the selected item",
    "Esc                back",
    "o / y (a photo)    open with xdg-open / copy its path",
    "1 2 3              grid / list / waterfall",
    "+ -                more / fewer columns",
    "r                  refresh (retries failures)",
    "?                  this help",
    "q  Ctrl-C          quit",
  ]

  func drawHelp(into buffer: inout FrameBuffer) {
    let boxWidth = min(
      width - 2, (Self.helpLines.map { GraphemeWidth.columns(of: $0) }.max() ?? 0) + 4)
    let boxHeight = min(height - 2, Self.helpLines.count + 4)
    guard boxWidth > 4, boxHeight > 2 else { return }
    let rect = CellRect(
      x: (width - boxWidth) / 2, y: (height - boxHeight) / 2, width: boxWidth, height: boxHeight)
    buffer.fill(rect, with: Cell(" ", style: Palette.bar))
    buffer.box(rect, style: Palette.bar)
    buffer.put(" Keys ", x: rect.x + 2, y: rect.y, style: Palette.bar)
    for (offset, line) in Self.helpLines.enumerated() where offset < rect.height - 4 {
      buffer.put(
        line, x: rect.x + 2, y: rect.y + 2 + offset, style: Palette.bar,
        clip: CellRect(x: rect.x + 1, y: rect.y + 1, width: rect.width - 2, height: rect.height - 2)
      )
    }
  }

  /// The detail view's image box: the viewport less a text block below (a local photo's
  /// facts take three more lines).
  var detailImageBox: CellRect {
    let area = viewportRect
    var isLocal = false
    if case .detail(let item) = overlay { isLocal = item.local != nil }
    let textRows = min(isLocal ? 9 : 8, max(isLocal ? 6 : 3, area.height / 3))
    return CellRect(
      x: 2, y: area.y + 1, width: max(1, width - 4), height: max(1, area.height - textRows - 2))
  }

  func bindDetailImage() {
    guard case .detail(let item) = overlay else { return }
    let box = detailImageBox
    let pixels = PixelSize(
      width: box.width * cellPixels.width, height: box.height * cellPixels.height)
    guard let url = item.imageURL(coveringWidth: pixels.width, height: pixels.height) else {
      detailSlot.prepareForReuse()
      return
    }
    let request = ImageRequest(
      url: url, targetSize: pixels,
      contentMode: .aspectFit, priority: .veryHigh, source: feed.imageSource)
    detailRequest = request
    detailImageID = ImageIdentity.id(for: request)
    detailSlot.bind(item: item.id, request: request, loader: loader)
    needsDisplay = true
  }

  func drawDetail(_ item: GalleryItem, into frame: inout Frame) {
    let area = viewportRect
    frame.buffer.fill(area, with: Cell(" ", style: .plain))
    // Earlier placements belong to the grid below the overlay.
    frame.images.removeAll()
    let box = detailImageBox
    switch detailSlot.content {
    case .image(let image):
      // Fit the image's shape into the box, centred.
      let heightPerWidth = cellHeightPerWidth(
        ofImage: Double(image.height) / Double(max(1, image.width)))
      var columns = box.width
      var rows = Int(clamping: Double(columns) * heightPerWidth, to: 1...max(1, box.height + 1))
      if rows > box.height {
        rows = max(1, box.height)
        columns = Int(clamping: Double(rows) / max(heightPerWidth, 0.01), to: 1...max(1, box.width))
      }
      let rect = CellRect(
        x: box.x + (box.width - columns) / 2, y: box.y, width: max(1, columns), height: max(1, rows)
      )
      if let bitmap = try? Bitmap(width: image.width, height: image.height, pixels: image.pixels) {
        frame.images.append(
          ImagePlacement(imageID: detailImageID, bitmap: bitmap, rect: rect, clip: area))
      }
    case .failed(let reason):
      frame.buffer.put("✗ " + reason, x: box.x, y: box.y, style: Palette.error, clip: area)
    case .placeholder:
      frame.buffer.put("Loading image…", x: box.x, y: box.y, style: Palette.dim, clip: area)
    }
    var y = box.maxY + 1
    let textWidth = max(1, width - 4)
    frame.buffer.put(
      TextLayout.truncate(item.title, columns: textWidth), x: 2, y: y, style: Palette.title,
      clip: area)
    y += 1
    if item.local == nil {  // a local photo's facts below say it, and more
      frame.buffer.put(
        TextLayout.truncate(item.subtitle, columns: textWidth), x: 2, y: y, style: Palette.dim,
        clip: area)
      y += 1
    }
    let facts = item.local?.lines ?? []
    for line in facts + TextLayout.wrap(item.body, columns: textWidth) where y < area.maxY - 1 {
      frame.buffer.put(
        TextLayout.truncate(line, columns: textWidth), x: 2, y: y, style: Palette.caption,
        clip: area)
      y += 1
    }
    let keys = item.local == nil ? "Esc back · q quit" : "Esc back · o open · y copy path · q quit"
    frame.buffer.put(keys, x: 2, y: area.maxY - 1, style: Palette.dim, clip: area)
  }
}
