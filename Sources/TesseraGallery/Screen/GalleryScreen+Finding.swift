import TesseraCollection
import TesseraTerminal

/// Finding photos: `/` filters by name as it is typed, `n`/`N` jump between the items whose
/// name matches the last query, `t` opens the month index, and the position marker on the
/// right edge shows where in the timeline the screen is.
extension GalleryScreen {
  /// A key while `/` takes the query: typing filters at once; Enter keeps the filter, Esc
  /// shows everything again (`n`/`N` still find the query), Backspace takes a letter back.
  /// Ctrl-C still quits. - Complexity: O(items) per key, the filter's pass over them.
  func handleFilterInput(_ key: Key) -> Command {
    guard var typed = filterInput else { return .none }
    switch key {
    case .control("c"): return perform(.interrupt)
    case .escape:
      filterInput = nil
      updateFilter { $0.query = "" }
      keepSelectionInView()
    case .enter:
      filterInput = nil
      if feed.filter.query.isEmpty { break }
      if feed.items.isEmpty {
        statusMessage = "no \(feed.noun) named like “\(feed.filter.query)”: Esc shows all"
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
    filterInput = typed
    if !typed.isEmpty { lastQuery = typed }
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
    guard !lastQuery.isEmpty else {
      statusMessage = "/ and a name first: n and N then find it"
      return
    }
    let items = feed.items
    guard !items.isEmpty else { return }
    let query = ItemFilter(query: lastQuery)
    for step in 1...items.count {
      let index = ((selected + delta * step) % items.count + items.count) % items.count
      if query.matches(title: items[index].title) {
        if index == selected { statusMessage = "only this one is named like “\(lastQuery)”" }
        selected = index
        keepSelectionInView()
        return
      }
    }
    statusMessage = "no \(feed.noun) named like “\(lastQuery)”"
  }

  // MARK: month index

  /// The titled sections (months or days), for the index; empty when the feed has none.
  var indexSections: [GallerySection] { feed.sections.filter { $0.title != nil } }

  /// `t`: the index opens on the section of the selected item.
  func openMonthIndex() {
    let sections = indexSections
    guard !sections.isEmpty else {
      statusMessage = "no months to list: these \(feed.noun) have no dates"
      return
    }
    let row = sections.firstIndex { $0.range.contains(selected) } ?? 0
    overlay = .monthIndex(row)
  }

  func moveInMonthIndex(by delta: Int) {
    guard case .monthIndex(let row) = overlay else { return }
    overlay = .monthIndex(min(max(0, row + delta), max(0, indexSections.count - 1)))
  }

  /// Enter in the index: its section's header at the top of the screen, its first item
  /// selected.
  func chooseFromMonthIndex() {
    guard case .monthIndex(let row) = overlay else { return }
    overlay = .none
    let sections = indexSections
    guard sections.indices.contains(row),
      let path = indexPath(ofFlat: sections[row].range.lowerBound)
    else { return }
    selected = sections[row].range.lowerBound
    collectionView.layoutIfNeeded()
    let header = collectionView.layout.frame(
      of: .supplementary(.sectionHeader, section: path.section))
    if let top = header?.y ?? collectionView.frameForItem(at: path)?.y {
      collectionView.setContentOffset(Double(max(0, top)))
    }
  }

  /// The index's box over the screen, each section with its count, the chosen one
  /// highlighted and kept in view; returned as an occluder.
  func drawMonthIndex(chosen: Int, into frame: inout Frame) {
    let sections = indexSections
    let lines = sections.map { section in
      "\(section.title ?? "") · \(GalleryFeed.grouped(section.range.count))"
    }
    let longest = lines.map { GraphemeWidth.columns(of: $0) }.max() ?? 0
    let title = " Months · Enter jumps · Esc "
    let boxWidth = min(width - 2, max(longest + 6, GraphemeWidth.columns(of: title) + 4))
    let boxHeight = min(height - 2, lines.count + 4)
    guard boxWidth > 6, boxHeight > 4 else { return }
    let box = CellRect(
      x: (width - boxWidth) / 2, y: (height - boxHeight) / 2, width: boxWidth, height: boxHeight)
    frame.buffer.fill(box, with: Cell(" ", style: Palette.bar))
    frame.buffer.box(box, style: Palette.bar)
    frame.buffer.put(
      TextLayout.truncate(title, columns: box.width - 4), x: box.x + 2, y: box.y,
      style: Palette.bar)
    let rows = box.height - 4
    let first = min(max(0, chosen - rows / 2), max(0, lines.count - rows))
    let inner = CellRect(x: box.x + 1, y: box.y + 1, width: box.width - 2, height: box.height - 2)
    for (offset, line) in lines.dropFirst(first).prefix(rows).enumerated() {
      let isChosen = first + offset == chosen
      frame.buffer.put(
        TextLayout.truncate((isChosen ? "▶ " : "  ") + line, columns: box.width - 4)
          .padding(toLength: box.width - 4, withPad: " ", startingAt: 0),
        x: box.x + 2, y: box.y + 2 + offset, style: isChosen ? Palette.selected : Palette.bar,
        clip: inner)
    }
    frame.occluders.append(box)
  }

  // MARK: position marker

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
