/// The selected item: its place among the feed's items and, as of the last frame, its id, so
/// the selection stays on its item when a walk's batch reorders.
struct GallerySelection: Equatable {
  /// Flat index into `GalleryFeed.items`.
  var index = 0
  /// The id of the item at `index` when the last frame was made; nil when there was none.
  var id: String?

  /// Moves by `delta` items, within `count` (at least 1) items.
  mutating func move(by delta: Int, count: Int) {
    index = min(max(0, index + delta), count - 1)
  }

  /// Within `count` items (0 when there are none).
  mutating func clamp(toCount count: Int) {
    index = min(index, max(0, count - 1))
  }

  /// Takes the id of the item at `index` among `ids` (the feed's, in order).
  mutating func remember(_ ids: [String]) {
    id = ids.indices.contains(index) ? ids[index] : nil
  }

  /// Whether the item it was on is no longer at `index` among `ids`: the id it remembers,
  /// if any, is elsewhere or gone.
  func isOffItsItem(in ids: [String]) -> Bool {
    guard let id else { return false }
    return ids.indices.contains(index) ? ids[index] != id : true
  }
}
