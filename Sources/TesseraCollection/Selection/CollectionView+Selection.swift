/// Selection and focus, kept by the engine through updates: a cell's item keeps its
/// selection as batch updates move it, and the focus stays on its item.
extension CollectionView {
  /// How many items can be selected (default: one). Switching to `.single` keeps only the
  /// anchor's item; to `.none`, nothing.
  public var selectionMode: SelectionMode {
    get { selection.mode }
    set {
      selection.mode = newValue
      switch newValue {
      case .none: selection.deselectAll()
      case .single:
        let kept = selection.anchor.flatMap { selection.contains($0) ? $0 : nil }
        selection.deselectAll()
        if let kept { selection.select(kept) }
      case .multiple: break
      }
    }
  }

  /// The selected items in index path order.
  /// - Complexity: O(s log s) for s selected items.
  public var indexPathsForSelectedItems: [IndexPath] {
    selection.selected.sorted().compactMap(indexPath(ofFlat:))
  }

  /// Whether `indexPath` is selected.
  /// - Complexity: O(1).
  public func isItemSelected(at indexPath: IndexPath) -> Bool {
    reloadIfNeeded()
    return content.flatIndex(of: indexPath).map(selection.contains) ?? false
  }

  /// Selects an item (in single mode, instead of any other) and focuses it. An index path
  /// naming no item throws and changes nothing.
  /// - Complexity: O(1).
  public func selectItem(at indexPath: IndexPath) throws(CollectionError) {
    let flat = try flatIndexOfItem(indexPath)
    selection.select(flat)
    selection.focused = flat
  }

  /// Deselects an item (a no-op when it was not selected).
  /// - Complexity: O(1).
  public func deselectItem(at indexPath: IndexPath) throws(CollectionError) {
    selection.deselect(try flatIndexOfItem(indexPath))
  }

  /// Deselects everything; the focus stays.
  public func deselectAllItems() {
    selection.deselectAll()
  }

  /// Selects every item (multiple mode only).
  /// - Complexity: O(n).
  public func selectAllItems() {
    reloadIfNeeded()
    guard selection.mode == .multiple else { return }
    for flat in 0..<content.totalItems { selection.select(flat) }
  }

  /// Ctrl-click: selects the item or deselects it, and focuses it.
  /// - Complexity: O(1).
  public func toggleSelection(at indexPath: IndexPath) throws(CollectionError) {
    let flat = try flatIndexOfItem(indexPath)
    selection.toggle(flat)
    selection.focused = flat
  }

  /// Shift-click: selects every item from the anchor (the last item selected or toggled on
  /// its own) to `indexPath`, in reading order, and focuses it.
  /// - Complexity: O(items in the range).
  public func extendSelection(to indexPath: IndexPath) throws(CollectionError) {
    let flat = try flatIndexOfItem(indexPath)
    selection.extend(to: flat)
    selection.focused = flat
  }

  /// The item the keyboard is on; nil until an item is focused (or when there are none).
  public var focusedIndexPath: IndexPath? {
    reloadIfNeeded()
    return selection.focused.flatMap(indexPath(ofFlat:))
  }

  /// Puts the focus on an item without changing the selection (unless
  /// `selectionFollowsFocus`), scrolling as little as makes it wholly visible.
  public func focusItem(at indexPath: IndexPath, animated: Bool = false) throws(CollectionError) {
    let flat = try flatIndexOfItem(indexPath)
    setFocus(flat, extendingSelection: false, animated: animated)
  }

  /// Moves the focus by the layout's geometry (see `FocusMove`), scrolling as little as makes
  /// the item wholly visible; with `extendingSelection`, the selection grows from the anchor
  /// to it (Shift-arrow). With no focus yet, the first item on screen takes it. Returns the
  /// focused item, nil when there are no items.
  /// - Complexity: O(log n + items in the rows searched); a page, O(log n + a screen).
  @discardableResult
  public func moveFocus(
    _ move: FocusMove, extendingSelection: Bool = false, animated: Bool = true
  ) -> IndexPath? {
    reloadIfNeeded()
    let count = content.totalItems
    guard count > 0 else { return nil }
    let target: Int
    if let current = selection.focused, current < count {
      target = neighbour(of: current, move) ?? current
    } else {
      target = firstItemOnScreen() ?? 0
    }
    setFocus(target, extendingSelection: extendingSelection, animated: animated)
    return indexPath(ofFlat: target)
  }

  /// When the focus is off screen (the person scrolled away from it), it moves to the nearest
  /// item wholly on screen: the first when it was above, the last when below. Returns whether
  /// it moved.
  @discardableResult
  public func keepFocusOnScreen() -> Bool {
    guard let focused = selection.focused, let path = indexPath(ofFlat: focused),
      let frame = layout.frame(of: .item(path)), !isWhollyVisible(frame, section: path.section)
    else { return false }
    let inside = onScreen.compactMap { element -> Int? in
      guard case .item(let path) = element.id,
        isWhollyVisible(element.frame, section: path.section)
      else { return nil }
      return content.flatIndex(of: path)
    }
    guard let first = inside.min(), let last = inside.max() else { return false }
    let target = frame.y < presentedOffset ? first : last
    selection.focused = target
    if selectionFollowsFocus { selection.select(target) }
    return true
  }

  // MARK: internals

  func flatIndexOfItem(_ indexPath: IndexPath) throws(CollectionError) -> Int {
    reloadIfNeeded()
    guard let flat = content.flatIndex(of: indexPath) else { throw .invalidIndexPath(indexPath) }
    return flat
  }

  func indexPath(ofFlat flat: Int) -> IndexPath? {
    flat >= 0 && flat < content.totalItems ? content.indexPath(ofFlat: flat) : nil
  }

  private func setFocus(_ flat: Int, extendingSelection: Bool, animated: Bool) {
    if extendingSelection {
      if selection.anchor == nil, let from = selection.focused { selection.anchor = from }
      selection.extend(to: flat)
    } else if selectionFollowsFocus {
      selection.select(flat)
    }
    selection.focused = flat
    scrollToMakeVisible(content.indexPath(ofFlat: flat), animated: animated)
  }

  private func firstItemOnScreen() -> Int? {
    onScreen.lazy.compactMap { element -> Int? in
      guard case .item(let path) = element.id else { return nil }
      return self.content.flatIndex(of: path)
    }.first
  }

  /// Whether `frame` lies wholly in the viewport, below the pinned header of its section.
  func isWhollyVisible(_ frame: Rect, section: Int) -> Bool {
    let top = presentedOffset + pinnedInset(forSection: section)
    return frame.y >= top && frame.maxY <= presentedOffset + viewportHeight
  }

  /// Scrolls the least that shows the item wholly (its top first when it is taller than
  /// the viewport), below its section's pinned header.
  func scrollToMakeVisible(_ indexPath: IndexPath, animated: Bool) {
    guard let frame = layout.frame(of: .item(indexPath)),
      !isWhollyVisible(frame, section: indexPath.section)
    else { return }
    let inset = pinnedInset(forSection: indexPath.section)
    let fromTop = frame.y < presentedOffset + inset || frame.height > viewportHeight - inset
    // A target, not an offset: a list's rows in between may be estimates until measured.
    scroll(
      to: ScrollTarget(
        element: .item(indexPath),
        placement: fromTop ? .viewportY(Double(inset)) : .position(.bottom)),
      animated: animated)
  }
}
