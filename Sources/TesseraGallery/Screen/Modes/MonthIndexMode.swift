import TesseraCollection
import TesseraTerminal
import TesseraUtilities

/// The month index's mode (`t`): a box over the screen listing the titled sections (months or
/// days) with their counts; its keys move and choose (`GalleryKeymap`'s index map), and its
/// chosen row is its state (`Overlay.monthIndex`).
extension GalleryScreen {
  /// The titled sections (months or days), for the index; empty when the feed has none.
  var indexSections: [GallerySection] { feed.sections.filter { $0.title != nil } }

  /// `t`: the index opens on the section of the selected item.
  func openMonthIndex() {
    let sections = indexSections
    guard !sections.isEmpty else {
      status.message = "no months to list: these \(feed.noun) have no dates"
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
      "\(section.title ?? "") · \(CountText.grouped(section.range.count))"
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
}
