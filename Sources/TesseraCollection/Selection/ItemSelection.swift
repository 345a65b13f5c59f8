/// The selection and the focus, as flat item indices of the content they were made in.
///
/// The engine keeps them through batch updates by remapping each index with the diff (items
/// keep their selection as they move; deleted items leave it) and through a reload by
/// clamping the focus (identity is unknown there).
///
/// - Complexity: select, deselect, ask: O(1); a range: O(items in it); a remap: O(selected).
struct ItemSelection {
  var mode = SelectionMode.single
  private(set) var selected: Set<Int> = []
  /// Where a range selection starts (the last item selected or toggled on its own).
  var anchor: Int?
  /// The keyboard's item; nil until something focuses an item.
  var focused: Int?

  func contains(_ flat: Int) -> Bool { selected.contains(flat) }

  /// Selects one item: in single mode it replaces the selection. Becomes the anchor.
  mutating func select(_ flat: Int) {
    switch mode {
    case .none: return
    case .single: selected = [flat]
    case .multiple: selected.insert(flat)
    }
    anchor = flat
  }

  mutating func deselect(_ flat: Int) {
    selected.remove(flat)
  }

  mutating func deselectAll() {
    selected.removeAll()
  }

  /// Flips one item (multiple mode; otherwise selects or deselects it alone).
  mutating func toggle(_ flat: Int) {
    if selected.contains(flat) {
      selected.remove(flat)
      anchor = flat
    } else {
      select(flat)
    }
  }

  /// Adds every item from the anchor (or `flat` itself when there is none) to `flat`. In
  /// single mode only `flat` is selected. The anchor stays, so a later extension pivots on it.
  mutating func extend(to flat: Int) {
    guard mode == .multiple else {
      select(flat)
      return
    }
    let start = anchor ?? flat
    for index in min(start, flat)...max(start, flat) { selected.insert(index) }
    anchor = start
  }

  /// After a batch update: `oldToNew[old]` is each old item's new flat index (nil: deleted).
  /// A deleted focus goes to the first surviving item after it (else before it, else none).
  mutating func remap(oldToNew: [Int?], newCount: Int) {
    func moved(_ old: Int) -> Int? { old >= 0 && old < oldToNew.count ? oldToNew[old] : nil }
    selected = Set(selected.compactMap(moved))
    anchor = anchor.flatMap(moved)
    guard let old = focused else { return }
    if let new = moved(old) {
      focused = new
      return
    }
    let after = oldToNew.indices.lazy.filter { $0 > old }.compactMap { oldToNew[$0] }.first
    let before = oldToNew.indices.reversed().lazy.filter { $0 < old }.compactMap { oldToNew[$0] }
      .first
    focused = after ?? before ?? (newCount > 0 ? 0 : nil)
  }

  /// After a reload without identities: the selection is gone, the focus stays at its index
  /// (clamped).
  mutating func reload(count: Int) {
    selected.removeAll()
    anchor = nil
    focused = focused.flatMap { count > 0 ? min($0, count - 1) : nil }
  }
}
