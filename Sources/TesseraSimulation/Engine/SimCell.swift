import TesseraCollection

/// A cell of the simulated feed: the item it represents (set by the data source) and its
/// image slot, which the strategy under test fills its own way. Every member is O(1).
@MainActor
final class SimCell: ReusableView {
  /// The item this cell shows now; nil until first configured.
  var item: Int?
  let slot = ImageSlot<SimImage>()
  /// `tessera` resets the slot on reuse; `naive` and `seed` leave reuse to `configure`.
  var resetsSlotOnReuse = false
  /// The height a list row asks for.
  var rowHeight = 1

  init() {}

  func prepareForReuse() {
    if resetsSlotOnReuse { slot.prepareForReuse() }
  }

  func preferredHeight(forWidth width: Int) -> Int? { rowHeight }

  /// The picture on screen: an item's image, or nothing (placeholder or failure text).
  var shownItem: Int? { slot.image?.item }
}
