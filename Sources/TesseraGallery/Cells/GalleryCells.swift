import TesseraCollection
import TesseraImages
import TesseraTerminal
import TesseraUtilities

/// What every gallery cell has: the item it shows and its image slot. The slot's generation
/// token, not an index path, decides whether a late image may land here.
@MainActor
protocol GalleryCell: ReusableView {
  var item: GalleryItem? { get set }
  var slot: ImageSlot<TesseraImages.Image> { get }
  /// The terminal's id for the pixels the slot shows or waits for (see `ImageIdentity`).
  var imageID: UInt64 { get set }
}

/// A grid or waterfall tile: the image fills the tile above a one-line caption.
@MainActor
final class TileCell: GalleryCell {
  var item: GalleryItem?
  let slot = ImageSlot<TesseraImages.Image>()
  var imageID: UInt64 = 0

  init() {}

  func prepareForReuse() {
    item = nil
    slot.prepareForReuse()
  }
}

/// A list row: a thumbnail beside the title, subtitle and wrapping body text. Its height is
/// the taller of the thumbnail (from the image's aspect ratio) and the wrapped text.
@MainActor
final class RowCell: GalleryCell {
  var item: GalleryItem?
  let slot = ImageSlot<TesseraImages.Image>()
  var imageID: UInt64 = 0
  /// Rows per column of the thumbnail (its height ÷ width in cells), set by the screen (cell shape, image shape).
  var thumbnailHeightPerWidth: Double = 0.5
  static let thumbnailWidth = 16

  /// The thumbnail's rows for `heightPerWidth` rows per column, within `GalleryLimits.thumbnailRows`.
  static func thumbnailRows(forHeightPerWidth heightPerWidth: Double) -> Int {
    Int(clamping: Double(thumbnailWidth) * heightPerWidth, to: GalleryLimits.thumbnailRows)
  }

  init() {}

  func prepareForReuse() {
    item = nil
    thumbnailHeightPerWidth = 0.5
    slot.prepareForReuse()
  }

  func preferredHeight(forWidth width: Int) -> Int? {
    guard let item else { return nil }
    let thumbnailRows = Self.thumbnailRows(forHeightPerWidth: thumbnailHeightPerWidth)
    let textWidth = max(8, width - Self.thumbnailWidth - 2)
    let lines = 2 + TextLayout.wrap(item.body, columns: textWidth).count
    return max(thumbnailRows, lines) + 1
  }
}
