import TesseraPhotoLibrary
import TesseraTerminal

/// The info panel (`i`, `InfoPanelMode`): opened over the grid or the detail view, it shows the
/// photo shown (or selected) and follows the selection as the person moves on, each photo's
/// file read once, off the main actor.
extension GalleryScreen {
  /// The item the panel describes: the one in the detail view, else the selected one.
  var infoItem: GalleryItem? {
    if case .detail(let item) = overlay { return item }
    return feed.items.indices.contains(selected) ? feed.items[selected] : nil
  }

  /// `i`: opens the panel, or closes it.
  func toggleInfo() {
    if modes.info != nil {
      closeInfo()
    } else {
      followWithInfo()
    }
    needsDisplay = true
  }

  func closeInfo() {
    modes.info?.load?.cancel()
    modes.info = nil
    needsDisplay = true
  }

  /// Points the panel at ``infoItem`` when it moved on (or when it opens), reading the new
  /// photo's file off the main actor.
  func followWithInfo() {
    guard let item = infoItem else { return }
    if let info = modes.info, info.itemID == item.id { return }
    modes.info?.load?.cancel()
    var info = InfoPanelMode(itemID: item.id)
    if let path = item.local?.path {
      info.load = Task { [weak self] in
        let facts = await Task.detached(priority: .userInitiated) {
          LocalPhotoHeaderReader().shootingFacts(ofFileAt: path)
        }.value
        guard !Task.isCancelled, let self, self.modes.info?.itemID == item.id else { return }
        self.modes.info?.facts = .read(facts)
        self.modes.info?.load = nil
        self.needsDisplay = true
      }
    } else {
      info.facts = .read(nil)
    }
    modes.info = info
    needsDisplay = true
  }

  /// The panel at the screen's right, over everything; its box is an occluder.
  func drawInfo(into frame: inout Frame) {
    guard let info = modes.info, let item = infoItem, item.id == info.itemID else { return }
    let lines = InfoPanel.lines(for: item, reading: info.facts)
    guard let rect = InfoPanel.rect(for: lines, width: width, height: height) else { return }
    frame.buffer.fill(rect, with: Cell(" ", style: Palette.bar))
    frame.buffer.box(rect, style: Palette.bar)
    frame.buffer.put(" Info · i closes ", x: rect.x + 2, y: rect.y, style: Palette.bar)
    let inside = CellRect(
      x: rect.x + 1, y: rect.y + 1, width: rect.width - 2, height: rect.height - 2)
    for (offset, line) in lines.enumerated() where offset < inside.height {
      frame.buffer.put(
        TextLayout.truncate(line, columns: inside.width - 2), x: rect.x + 2, y: inside.y + offset,
        style: offset == 0 ? Palette.barTitle : Palette.bar, clip: inside)
    }
    frame.occluders.append(rect)
  }
}
