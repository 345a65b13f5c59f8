import TesseraCollection
import TesseraTerminal

/// Keys and mouse: what a person does to the gallery.
extension GalleryScreen {
  enum Command: Equatable {
    case none
    case quit
    case refresh
    /// Ctrl-Z: give the terminal back and stop, as a shell's job control expects.
    case suspend
    /// Ctrl-L: forget what the terminal shows and draw it all again.
    case redraw
    /// Ctrl-x and a key: lend the terminal to the key-handler with these paths.
    case runKeyHandler(key: String, paths: [String])
  }

  /// Units one arrow press or wheel notch scrolls; presses in a row add up with momentum.
  nonisolated static let scrollStep = 3.0

  func handle(_ event: InputEvent) -> Command {
    // The info panel follows the photo shown or selected, whatever moved it.
    defer { if modes.info != nil { followWithInfo() } }
    switch event {
    case .key(let key, let modifiers):
      return handle(key, modifiers: modifiers)
    case .mouse(let mouse):
      handle(mouse)
      return .none
    case .resize(let size):
      resize(width: size.columns, height: size.rows)
      return .none
    case .focus, .paste, .reply:
      return .none
    }
  }

  /// A key ends a status message, then does what the keymaps in force bind it to
  /// (`GalleryKeymap.chain(for:)`).
  private func handle(_ key: Key, modifiers: KeyModifiers) -> Command {
    if status.message != nil {
      status.message = nil
      needsDisplay = true
    }
    // The innermost mode that takes keys: the key-handler prefix, the filter prompt, the
    // tag prompt, then the keymaps of the overlay and the grid.
    if modes.awaitsKeyHandlerKey { return handleKeyHandlerKey(key) }
    if modes.filterInput != nil { return handleFilterInput(key) }
    if modes.tagInput != nil { return handleTagInput(key) }
    // The info panel takes Esc before the overlay or grid under it.
    if modes.info != nil, key == .escape {
      closeInfo()
      return .none
    }
    guard let action = GalleryKeymap.action(for: key, over: overlay) else { return .none }
    return perform(action)
  }

  /// Carries out `action`; everything but quitting, suspending, refreshing and redrawing
  /// marks the screen for its next frame.
  func perform(_ action: GalleryAction) -> Command {
    switch action {
    case .quit:
      choices.exitPaths = chosenPaths()
      return .quit
    case .interrupt: return .quit
    case .suspend: return .suspend
    case .refresh: return .refresh
    case .redraw:
      needsDisplay = true
      return .redraw
    case .toggleHelp: overlay = overlay == .help ? .none : .help
    case .toggleInfo: toggleInfo()
    case .openExternally:
      guard case .detail(let item) = overlay, let local = item.local else { return .none }
      status.message = services.openExternally(local.path)
    case .copyPath:
      guard case .detail(let item) = overlay, let local = item.local else { return .none }
      services.writeToTerminal?(Clipboard.osc52(copying: local.path))
      status.message = "copied the path to the clipboard (OSC 52)"
    case .closeOverlay:
      overlay = .none
      modes.slideshow.running = nil
    case .scroll(let units): collectionView.scroll(by: units)
    case .moveSelection(let move): moveSelection(move)
    case .pageDown: collectionView.pageDown()
    case .pageUp: collectionView.pageUp()
    case .jumpToFirst: jump(toItem: 0)
    case .jumpToLast: jump(toItem: feed.items.count - 1)
    case .openSelected:
      if choices.picking {
        choices.exitPaths =
          feed.items.indices.contains(selected) ? [Self.path(of: feed.items[selected])] : []
        return .quit
      }
      openSelected()
    case .toggleMark:
      if feed.items.indices.contains(selected) { choices.marks.toggle(feed.items[selected].id) }
    case .toggleRangeMarking:
      choices.marks.toggleRange(at: selected, ids: feed.itemIDs)
    case .invertMarks:
      choices.marks.invert(ids: feed.itemIDs)
    case .nextLayout:
      let modes = LayoutMode.allCases
      // The status bar names the layout already: no message to push its counts off.
      setLayout(modes[((modes.firstIndex(of: layoutMode) ?? 0) + 1) % modes.count])
    case .rate(let rating): cull(.rating(rating))
    case .toggleReject: cullTogglingReject()
    case .toggleLabel(let label): cullTogglingLabel(label)
    case .startTagging: startTagging()
    case .changeColumns(let delta): changeColumns(by: delta)
    case .trash: trashPhotos()
    case .undo: undoLastChange()
    case .startFilter: modes.filterInput = feed.filter.query
    case .clearFilter: clearFilter()
    case .nextMatch(let delta): jumpToMatch(delta)
    case .openMonthIndex: openMonthIndex()
    case .moveInIndex(let delta): moveInMonthIndex(by: delta)
    case .chooseFromIndex: chooseFromMonthIndex()
    case .keyHandlerPrefix:
      modes.awaitsKeyHandlerKey = true
      status.message = "Ctrl-x: now a key for the key-handler (Esc cancels)"
    case .zoom(let factor):
      if overlay == .compare { zoomCompare(by: factor) } else { zoomDetail(by: factor) }
    case .zoomToFit:
      if overlay == .compare { zoomCompareToFit() } else { zoomDetailToFit() }
    case .zoomToActualPixels:
      if overlay == .compare { zoomCompareToActualPixels() } else { zoomDetailToActualPixels() }
    case .pan(let x, let y):
      if overlay == .compare { compare.zoom.pan(x: x, y: y) } else { detail.zoom.pan(x: x, y: y) }
    case .showNeighbour(let delta):
      if overlay == .compare {
        showNeighbourInComparePane(delta)
      } else {
        showNeighbour(delta)
        modes.slideshow.running?.restart(at: .now)
      }
    case .openCompare: openCompare()
    case .toggleStack: toggleStack()
    case .focusPane(let delta): focusComparePane(by: delta)
    case .toggleSlideshow: toggleSlideshow()
    case .toggleVideoPlayback: toggleVideoPlayback()
    case .toggleMotion: toggleMotion()
    case .seekVideo(let forward): seekVideo(by: forward ? Self.seekStep : .zero - Self.seekStep)
    }
    needsDisplay = true
    return .none
  }

  private func handle(_ mouse: MouseEvent) {
    guard overlay == .none else {
      if case .press = mouse.kind { overlay = .none }
      needsDisplay = true
      return
    }
    switch mouse.kind {
    case .wheelDown: collectionView.scroll(by: Self.scrollStep)
    case .wheelUp: collectionView.scroll(by: -Self.scrollStep)
    case .press:
      if let index = item(atColumn: mouse.column, row: mouse.row) {
        if index == selected { openSelected() } else { selected = index }
      }
    default: break
    }
    needsDisplay = true
  }

  /// The item under a screen position (rows count from the title bar), nil on a header,
  /// the spacing or a bar: the engine's hit-testing against what the last frame drew.
  func item(atColumn column: Int, row: Int) -> Int? {
    collectionView.indexPathForItem(atX: column, y: row - viewportRect.y, in: .viewport)
      .flatMap(flatIndex(of:))
  }

  /// `h`/`l` and `J`/`K`: the engine moves the focus by the layout's geometry (in a waterfall,
  /// up and down stay in the column) and scrolls as little as shows it.
  private func moveSelection(_ move: FocusMove) {
    guard !feed.items.isEmpty else { return }
    let old = selected
    collectionView.moveFocus(move)
    choices.marks.selectionMoved(from: old, to: selected, ids: feed.itemIDs)
  }

  private func jump(toItem index: Int) {
    guard let path = indexPath(ofFlat: index) else { return }
    selected = index
    if index == 0 {
      collectionView.setContentOffset(0)  // the first section's header too
    } else {
      try? collectionView.scrollToItem(path, at: .bottom, animated: false)
    }
  }

  private func openSelected() {
    guard feed.items.indices.contains(selected) else { return }
    showSelectedInDetail()
  }

  var isSelectionVisible: Bool {
    guard let path = collectionView.focusedIndexPath else { return false }
    return collectionView.visibleCells.contains { visible in
      visible.indexPath == path && visible.frame.y >= 0
        && visible.frame.maxY <= collectionView.viewportHeight
    }
  }

  /// The paths `q` prints with `-o`: the marked photos' in the order shown, else the selected
  /// one's; none when there is nothing.
  func chosenPaths() -> [String] {
    let items = feed.items
    let marked = choices.marks.count == 0 ? [] : items.filter { choices.marks.contains($0.id) }
    if !marked.isEmpty { return marked.map(Self.path(of:)) }
    return items.indices.contains(selected) ? [Self.path(of: items[selected])] : []
  }

  /// A local photo's path; a feed item's largest image URL.
  nonisolated static func path(of item: GalleryItem) -> String {
    item.local?.path
      ?? item.imageURL(coveringWidth: 65_535, height: 65_535)?.absoluteString ?? item.id
  }
}
