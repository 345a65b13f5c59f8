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
  }

  /// Units one arrow press or wheel notch scrolls; presses in a row add up with momentum.
  static let scrollStep = 3.0

  func handle(_ event: InputEvent) -> Command {
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

  private func handle(_ key: Key, modifiers: KeyModifiers) -> Command {
    if statusMessage != nil {
      statusMessage = nil
      needsDisplay = true
    }
    if key == .control("c") || key == .character("q") { return .quit }
    if key == .control("z") { return .suspend }
    if key == .character("?") {
      overlay = overlay == .help ? .none : .help
      needsDisplay = true
      return .none
    }
    if case .detail(let item) = overlay, let local = item.local {
      switch key {
      case .character("o"):
        statusMessage = openExternally(local.path)
        needsDisplay = true
        return .none
      case .character("y"):
        writeToTerminal?(Clipboard.osc52(copying: local.path))
        statusMessage = "copied the path to the clipboard (OSC 52)"
        needsDisplay = true
        return .none
      default: break
      }
    }
    if overlay != .none {
      if key == .escape || key == .enter || key == .backspace {
        overlay = .none
        needsDisplay = true
      }
      return .none
    }
    switch key {
    case .down, .character("j"): collectionView.scroll(by: Self.scrollStep)
    case .up, .character("k"): collectionView.scroll(by: -Self.scrollStep)
    case .right, .character("l"): moveSelection(by: 1)
    case .left, .character("h"): moveSelection(by: -1)
    case .pageDown, .space, .control("f"): collectionView.pageDown()
    case .pageUp, .control("b"): collectionView.pageUp()
    case .home, .character("g"): jump(toItem: 0)
    case .end, .character("G"): jump(toItem: feed.items.count - 1)
    case .enter: openSelected()
    case .character("1"): setLayout(.grid)
    case .character("2"): setLayout(.list)
    case .character("3"): setLayout(.waterfall)
    case .character("+"), .character("="): changeColumns(by: 1)
    case .character("-"), .character("_"): changeColumns(by: -1)
    case .character("r"): return .refresh
    default: return .none
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

  /// The item under a screen position (rows count from the title bar).
  func item(atColumn column: Int, row: Int) -> Int? {
    let y = row - 1
    return collectionView.visibleCells.first { visible in
      let frame = visible.frame
      return column >= frame.x && column < frame.maxX && y >= frame.y && y < frame.maxY
    }.flatMap { flatIndex(of: $0.indexPath) }
  }

  private func moveSelection(by delta: Int) {
    guard !feed.items.isEmpty else { return }
    selected = min(max(0, selected + delta), feed.items.count - 1)
    if !isSelectionVisible, let path = indexPath(ofFlat: selected) {
      try? collectionView.scrollToItem(path, at: delta > 0 ? .bottom : .top, animated: true)
    }
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
    overlay = .detail(feed.items[selected])
    bindDetailImage()
  }

  var isSelectionVisible: Bool {
    collectionView.visibleCells.contains { visible in
      flatIndex(of: visible.indexPath) == selected && visible.frame.y >= 0
        && visible.frame.maxY <= collectionView.viewportHeight
    }
  }

  /// After scrolling, the selection moves onto the screen rather than being left behind.
  func keepSelectionVisible() {
    guard !isSelectionVisible else { return }
    let inside = collectionView.visibleCells.filter {
      $0.frame.y >= 0 && $0.frame.maxY <= collectionView.viewportHeight
    }
    guard let first = inside.first.flatMap({ flatIndex(of: $0.indexPath) }),
      let last = inside.last.flatMap({ flatIndex(of: $0.indexPath) })
    else { return }
    selected = selected < first ? first : last
  }
}
