import TesseraImages

/// The detail view's keys: neighbours (`Space`, `Backspace`), zoom (`+`, `-`, `f`, `z`) and pan
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

  /// Zooms by `factor` (within `PhotoZoom.factors`), asking for the photo again at the
  /// zoomed pixel size: a zoomed photo is decoded larger, never enlarged from the fitted one.
  func zoomDetail(by factor: Double) {
    guard detail.zoom.set(detail.zoom.factor * factor) else { return }
    bindDetailImage()
  }

  func zoomDetailToFit() {
    guard !detail.zoom.isFitted else { return }
    detail.resetView()
    bindDetailImage()
  }

  /// `z`: one pixel of the photo on one pixel of the screen, or fitted again.
  func zoomDetailToActualPixels() {
    guard detail.zoom.isFitted else { return zoomDetailToFit() }
    guard let shown = detail.shown, case .detail(let item) = overlay, shown.itemID == item.id,
      let factor = actualPixelsFactor(of: shown.image, in: detailImageBox)
    else { return }
    zoomDetail(by: factor)
  }
}
