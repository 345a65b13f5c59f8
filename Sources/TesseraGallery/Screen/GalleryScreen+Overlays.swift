import TesseraCollection
import TesseraImages
import TesseraTerminal
import TesseraUtilities

/// The detail view (Enter on an item; Esc returns to the same place); the help card is
/// `HelpOverlay`.
extension GalleryScreen {
  /// The help card, and its box as an occluder: no image shows over it, in any protocol.
  func drawHelp(into frame: inout Frame) {
    if let box = HelpOverlay.draw(into: &frame.buffer, width: width, height: height) {
      frame.occluders.append(box)
    }
  }

  /// The detail view's image box: the viewport less a text block below (a local photo's
  /// facts take three more lines).
  var detailImageBox: CellRect {
    var isLocal = false
    if case .detail(let item) = overlay { isLocal = item.local != nil }
    return DetailOverlay.imageBox(in: viewportRect, width: width, isLocal: isLocal)
  }

  func bindDetailImage() {
    guard case .detail(let item) = overlay else { return }
    let box = detailImageBox
    let pixels = PixelSize(
      width: box.width * cellPixels.width, height: box.height * cellPixels.height)
    guard let url = item.imageURL(coveringWidth: pixels.width, height: pixels.height) else {
      detail.slot.prepareForReuse()
      return
    }
    let request = ImageRequest(
      url: url, targetSize: pixels,
      contentMode: .aspectFit, priority: .veryHigh, source: feed.imageSource)
    detail.request = request
    detail.imageID = ImageIdentity.id(for: request)
    detail.slot.bind(item: item.id, request: request, loader: loader)
    needsDisplay = true
  }

  func drawDetail(_ item: GalleryItem, into frame: inout Frame) {
    let area = viewportRect
    frame.buffer.fill(area, with: Cell(" ", style: .plain))
    // Earlier placements belong to the grid below the overlay.
    frame.images.removeAll()
    let box = detailImageBox
    switch detail.slot.content {
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
          ImagePlacement(imageID: detail.imageID, bitmap: bitmap, rect: rect, clip: area))
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
