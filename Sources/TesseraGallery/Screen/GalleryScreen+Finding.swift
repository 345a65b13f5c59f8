import TesseraCollection
import TesseraTerminal

/// The filter prompt's mode and finding by name: `/` filters by name as it is typed, `n`/`N`
/// jump between the items whose name matches the last query; and the position marker on the
/// right edge, which shows where in the timeline the screen is.
extension GalleryScreen {
  /// A key while `/` takes the query: typing filters at once; Enter keeps the filter, Esc
  /// shows everything again (`n`/`N` still find the query), Backspace takes a letter back.
  /// Ctrl-C still quits. - Complexity: O(items) per key, the filter's pass over them.
  func handleFilterInput(_ key: Key) -> Command {
    guard var typed = modes.filterInput else { return .none }
    switch key {
    case .control("c"): return perform(.interrupt)
    case .escape:
      modes.filterInput = nil
      updateFilter { $0.query = "" }
      keepSelectionInView()
    case .enter:
      modes.filterInput = nil
      if feed.filter.query.isEmpty { break }
      if feed.items.isEmpty {
        status.message = "no \(feed.noun) named like “\(feed.filter.query)”: Esc shows all"
      }
    case .backspace:
      if !typed.isEmpty { typed.removeLast() }
      setQuery(typed)
    case .character(let character):
      typed.append(character)
      setQuery(typed)
    default: break
    }
    needsDisplay = true
    return .none
  }

  private func setQuery(_ typed: String) {
    modes.filterInput = typed
    if !typed.isEmpty { modes.lastQuery = typed }
    updateFilter { $0.query = typed }
    keepSelectionInView()
  }

  /// Changes what the feed shows, the selection staying on its photo when that is still
  /// shown: the photo it is on now, not the one the last frame saw.
  func updateFilter(_ change: (inout ItemFilter) -> Void) {
    change(&feed.filter)
  }

  /// After the items shown changed, the selected one is scrolled to.
  private func keepSelectionInView() {
    guard let path = indexPath(ofFlat: selected) else { return }
    try? collectionView.scrollToItem(path, at: .center, animated: false)
  }

  /// Esc over the items while a filter is kept: everything shows again, the selection stays
  /// on its photo.
  func clearFilter() {
    guard !feed.filter.query.isEmpty else { return }
    updateFilter { $0.query = "" }
    keepSelectionInView()
  }

  /// `n` (`delta` 1) or `N` (-1): the selection moves to the next or previous item whose name
  /// contains the last query, wrapping at the ends. - Complexity: O(items).
  func jumpToMatch(_ delta: Int) {
    guard !modes.lastQuery.isEmpty else {
      status.message = "/ and a name first: n and N then find it"
      return
    }
    let items = feed.items
    guard !items.isEmpty else { return }
    let query = ItemFilter(query: modes.lastQuery)
    for step in 1...items.count {
      let index = ((selected + delta * step) % items.count + items.count) % items.count
      if query.matches(items[index]) {
        if index == selected { status.message = "only this one is named like “\(modes.lastQuery)”" }
        selected = index
        keepSelectionInView()
        return
      }
    }
    status.message = "no \(feed.noun) named like “\(modes.lastQuery)”"
  }

  /// The thumb in the last column (which the items leave free): where the screen is in
  /// everything there is to scroll, as tall as the share of it the screen shows. Nothing when
  /// everything fits.
  func drawPositionMarker(into frame: inout Frame) {
    let area = viewportRect
    let content = collectionView.contentHeight
    guard area.height > 2, width > 2, content > area.height else { return }
    let thumb = max(1, area.height * area.height / content)
    let travel = area.height - thumb
    let offset = Double(collectionView.presentedOffset) / max(1, collectionView.maximumOffset)
    let top = area.y + Int((Double(travel) * min(max(0, offset), 1)).rounded())
    let column = CellRect(x: width - 1, y: area.y, width: 1, height: area.height)
    frame.buffer.fill(column, with: Cell("│", style: Palette.dim))
    frame.buffer.fill(
      CellRect(x: width - 1, y: top, width: 1, height: thumb),
      with: Cell("┃", style: Palette.caption))
  }

  /// The title of the section at the top of the screen ("May 2024"), for the title bar.
  var sectionAtTop: String? {
    guard let first = collectionView.indexPathsForVisibleItems.first,
      feed.sections.indices.contains(first.section)
    else { return nil }
    return feed.sections[first.section].title
  }
}
