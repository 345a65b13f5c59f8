import TesseraCollection
import TesseraImages
import TesseraTerminal

/// The detail view's own state (Enter on an item): the image slot its picture is bound to,
/// the request behind it and the id its placements carry. Which item it shows is the screen's
/// `overlay`; the screen draws it (`GalleryScreen.drawDetail`).
@MainActor
final class DetailOverlay {
  let slot = ImageSlot<TesseraImages.Image>()
  var imageID: UInt64 = 0
  /// What the detail view asked the pipeline for: the photo at the box's pixel size.
  var request: ImageRequest?

  /// The image box in `area` (the viewport) of a screen `width` cells wide: the area less a
  /// text block below (a local photo's facts take three more lines).
  static func imageBox(in area: CellRect, width: Int, isLocal: Bool) -> CellRect {
    let textRows = min(isLocal ? 9 : 8, max(isLocal ? 6 : 3, area.height / 3))
    return CellRect(
      x: 2, y: area.y + 1, width: max(1, width - 4), height: max(1, area.height - textRows - 2))
  }
}
