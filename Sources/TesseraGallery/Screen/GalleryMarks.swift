/// The photos a person marked (`m`, `v`, `*`), by item id: a walk's batch may reorder the
/// items under them, and the marks stay on their photos.
///
/// - Complexity: toggling and asking are O(1); a range or an inversion is O(items in it);
///   the marked paths in feed order, O(items).
struct GalleryMarks: Equatable {
  private(set) var ids: Set<String> = []
  /// Where `v` was pressed: while set, every move of the selection marks the items it
  /// passes over.
  private(set) var rangeStart: Int?

  var count: Int { ids.count }

  func contains(_ id: String) -> Bool { ids.contains(id) }

  /// `m`: marks the item, or unmarks it.
  mutating func toggle(_ id: String) {
    if ids.remove(id) == nil { ids.insert(id) }
  }

  /// `v`: starts marking the range the selection moves over from `index` (marking the item
  /// there), or stops.
  mutating func toggleRange(at index: Int, ids itemIDs: [String]) {
    if rangeStart != nil {
      rangeStart = nil
    } else {
      rangeStart = index
      if itemIDs.indices.contains(index) { ids.insert(itemIDs[index]) }
    }
  }

  /// The selection moved from `old` to `new`: in range mode, every item between them is
  /// marked.
  mutating func selectionMoved(from old: Int, to new: Int, ids itemIDs: [String]) {
    guard rangeStart != nil, !itemIDs.isEmpty else { return }
    let low = max(0, min(old, new))
    let high = min(itemIDs.count - 1, max(old, new))
    guard low <= high else { return }
    for index in low...high { ids.insert(itemIDs[index]) }
  }

  /// `*`: every item marked becomes unmarked and every other marked.
  mutating func invert(ids itemIDs: [String]) {
    var inverted = Set<String>()
    for id in itemIDs where !ids.contains(id) { inverted.insert(id) }
    ids = inverted
  }

  /// Marks of items no longer shown (a trashed photo) are dropped.
  mutating func keep(only itemIDs: [String]) {
    ids.formIntersection(itemIDs)
  }

  mutating func removeAll() {
    ids.removeAll()
    rangeStart = nil
  }
}
