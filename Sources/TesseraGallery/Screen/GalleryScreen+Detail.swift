import TesseraImages

/// The detail view's keys: neighbours (`Space`, `Backspace`), zoom (`+`, `-`, `0`) and pan
/// (`h j k l`); the slideshow (`s`) is a mode of its own (`SlideshowMode`).
extension GalleryScreen {
  /// How much one `+` zooms, and how far one pan key moves (a fraction of the box).
  nonisolated static let zoomStep = 1.5
  nonisolated static let panStep = 0.25

  /// The detail view shows the selected item (after `d`, the next one; nothing left: back to
  /// the items), fitted.
  func showSelectedInDetail() {
    guard feed.items.indices.contains(selected) else {
      overlay = .none
      modes.slideshow.running = nil
      return
    }
    overlay = .detail(feed.items[selected])
    detail.resetView()
    bindDetailImage()
  }

  /// The next (`delta` 1) or previous item in the detail view, wrapping at the ends as a
  /// slideshow does; the grid below follows, so Esc returns to it.
  func showNeighbour(_ delta: Int) {
    let count = feed.items.count
    guard count > 0 else { return }
    selected = ((selected + delta) % count + count) % count
    if let path = indexPath(ofFlat: selected) {
      try? collectionView.scrollToItem(path, at: .center, animated: false)
    }
    showSelectedInDetail()
  }

  /// Zooms by `factor` (within `DetailOverlay.zooms`), asking for the photo again at the
  /// zoomed pixel size: a zoomed photo is decoded larger, never enlarged from the fitted one.
  func zoomDetail(by factor: Double) {
    let zoom = min(
      max(DetailOverlay.zooms.lowerBound, detail.zoom * factor), DetailOverlay.zooms.upperBound)
    guard zoom != detail.zoom else { return }
    detail.zoom = zoom
    if zoom == 1 { detail.centre = (0.5, 0.5) }
    bindDetailImage()
  }

  func zoomDetailToFit() {
    guard detail.zoom != 1 else { return }
    detail.resetView()
    bindDetailImage()
  }

  /// Moves the window over a zoomed photo by fractions of the box; nothing moves when fitted.
  func panDetail(x: Double, y: Double) {
    guard detail.zoom > 1 else { return }
    let step = 1 / detail.zoom
    detail.centre = (
      min(max(0, detail.centre.x + x * step), 1), min(max(0, detail.centre.y + y * step), 1)
    )
  }
}
