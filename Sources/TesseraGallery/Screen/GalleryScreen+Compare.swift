import TesseraCollection
import TesseraImages
import TesseraTerminal
import TesseraUtilities

/// The compare view (`c`, `CompareOverlay`): two to four photos side by side under one zoom
/// and one pan, to pick the sharpest frame of a burst at 100 %. The culling keys act on the
/// chosen pane (▶), and the grid's selection follows it, so `m`, `i` and Esc back land on it.
extension GalleryScreen {
  /// `c`: the marked photos (the first four, in the order shown), or else the selected photo
  /// and the one after it.
  func openCompare() {
    let items = feed.items
    let marked = choices.marks.count < 2 ? [] : items.filter { choices.marks.contains($0.id) }
    let chosen: [GalleryItem]
    if marked.count >= 2 {
      chosen = Array(marked.prefix(CompareOverlay.photoLimit))
      if marked.count > CompareOverlay.photoLimit {
        status.message =
          "comparing the first \(CompareOverlay.photoLimit) of the \(marked.count) marked photos"
      }
    } else {
      guard items.count >= 2, items.indices.contains(selected) else {
        status.message = "compare needs two photos: mark them with m, or select one of two"
        return
      }
      let first = min(selected, items.count - 2)
      chosen = [items[first], items[first + 1]]
    }
    let selectedID = items.indices.contains(selected) ? items[selected].id : nil
    overlay = .compare
    compare.items = chosen
    compare.focus = chosen.firstIndex { $0.id == selectedID } ?? 0
    compare.zoom = PhotoZoom()
    bindCompareImages()
    selectFocusedComparePhoto()
  }

  /// The panes on this screen: the viewport less a row above and the keys' row below.
  var comparePanes: [CellRect] {
    let area = viewportRect
    let first = compare.items.first
    let heightPerWidth =
      first.flatMap { feedProgress.knownHeightsPerWidth[$0.id] ?? $0.knownHeightPerWidth }
      ?? 2 / 3
    return CompareOverlay.panes(
      count: compare.items.count,
      in: CellRect(x: 1, y: area.y + 1, width: max(1, width - 2), height: max(1, area.height - 2)),
      heightPerWidth: cellHeightPerWidth(ofImage: heightPerWidth))
  }

  /// Asks for every pane's photo at its box's size times the shared zoom.
  func bindCompareImages() {
    let panes = comparePanes
    for (index, item) in compare.items.enumerated() where index < panes.count {
      let box = CompareOverlay.imageBox(inPane: panes[index])
      guard let request = photoRequest(for: item, in: box, zoom: compare.zoom) else {
        compare.slots[index].prepareForReuse()
        continue
      }
      compare.requests[index] = request
      compare.slots[index].bind(item: item.id, request: request, loader: loader)
    }
    needsDisplay = true
  }

  /// Tab and Shift-Tab: the next or previous pane is the one the keys act on.
  func focusComparePane(by delta: Int) {
    let count = compare.items.count
    guard count > 0 else { return }
    compare.focus = ((compare.focus + delta) % count + count) % count
    selectFocusedComparePhoto()
  }

  /// Space and ⌫: the chosen pane shows the next (or previous) photo of the grid that no other
  /// pane shows, as Lightroom's candidate moves on while the select stays.
  func showNeighbourInComparePane(_ delta: Int) {
    let items = feed.items
    guard let focused = compare.focusedItem,
      let start = items.firstIndex(where: { $0.id == focused.id })
    else { return }
    let others = Set(compare.items.map(\.id))
    var index = start
    for _ in 0..<items.count {
      index = ((index + delta) % items.count + items.count) % items.count
      guard !others.contains(items[index].id) else { continue }
      compare.shown[focused.id] = nil
      compare.items[compare.focus] = items[index]
      compare.slots[compare.focus].prepareForReuse()
      bindCompareImages()
      selectFocusedComparePhoto()
      return
    }
  }

  /// The grid's selection is the chosen pane's photo.
  private func selectFocusedComparePhoto() {
    guard let focused = compare.focusedItem,
      let index = feed.items.firstIndex(where: { $0.id == focused.id })
    else { return }
    selected = index
  }

  func zoomCompare(by factor: Double) {
    guard compare.zoom.set(compare.zoom.factor * factor) else { return }
    bindCompareImages()
  }

  func zoomCompareToFit() {
    guard compare.zoom.set(1) else { return }
    bindCompareImages()
  }

  /// `z`: one pixel of the chosen photo on one pixel of the screen, or fitted again.
  func zoomCompareToActualPixels() {
    guard compare.zoom.isFitted else { return zoomCompareToFit() }
    let panes = comparePanes
    guard let shown = compare.focusedItem.flatMap({ compare.shown[$0.id] }),
      panes.indices.contains(compare.focus)
    else { return }
    guard
      let factor = actualPixelsFactor(
        of: shown.image, in: CompareOverlay.imageBox(inPane: panes[compare.focus]))
    else { return }
    zoomCompare(by: factor)
  }

  /// The zoom at which `image`'s original shows one pixel per screen pixel in `box`; nil (the
  /// status bar says why) when fitted it is already that large.
  func actualPixelsFactor(of image: TesseraImages.Image, in box: CellRect) -> Double? {
    let fitted = PhotoZoom().view(
      heightPerWidth: cellHeightPerWidth(
        ofImage: Double(image.height) / Double(max(1, image.width))),
      in: box)
    let fittedPixels = Double(max(1, fitted.rect.width * geometry.cellPixels.width))
    let factor = Double(image.originalSize.width) / fittedPixels
    guard factor > 1 else {
      status.message = "fitted, the photo is already shown at 100 % or larger"
      return nil
    }
    return factor
  }

  func drawCompare(into frame: inout Frame) {
    let area = viewportRect
    frame.buffer.fill(area, with: Cell(" ", style: .plain))
    frame.images.removeAll()  // the grid's, under the overlay
    let panes = comparePanes
    for (index, item) in compare.items.enumerated() where index < panes.count {
      let box = CompareOverlay.imageBox(inPane: panes[index])
      let shownRect = drawComparePicture(of: item, pane: index, in: box, clip: area, into: &frame)
      // The caption right under the photo, from its left edge (a fitted landscape photo
      // leaves the box's foot empty, a portrait one its sides).
      let captionY = min(box.maxY, shownRect.map(\.maxY) ?? box.y + 1)
      let captionX = shownRect?.x ?? box.x
      let isFocused = index == compare.focus
      drawCaption(
        of: item, x: captionX, y: captionY, width: box.maxX - captionX, isSelected: isFocused,
        isMarked: choices.marks.contains(item.id), clip: area, into: &frame.buffer)
      // The chosen pane says so without colour too, in the gap before its caption.
      if isFocused {
        frame.buffer.put("▶", x: captionX - 1, y: captionY, style: Palette.title, clip: area)
      }
    }
    // The zoom first: on a narrow screen the end of the line is cut.
    var keys = compare.zoom.isFitted ? "" : "\(compare.zoom.text) · h j k l pan all · "
    keys +=
      "Esc back · Tab next pane · Space/⌫ its next photo · + - f z zoom · 0–5 x 6–9 # on ▶"
      + " · Enter opens it"
    frame.buffer.put(
      TextLayout.truncate(keys, columns: max(1, width - 4)), x: 2, y: area.maxY - 1,
      style: Palette.dim, clip: area)
  }

  /// The pane's picture, or what it says while there is none; the cells the picture took.
  private func drawComparePicture(
    of item: GalleryItem, pane index: Int, in box: CellRect, clip: CellRect,
    into frame: inout Frame
  ) -> CellRect? {
    switch compare.slots[index].content {
    case .image(let image):
      guard let request = compare.requests[index] else { return nil }
      compare.shown[item.id] = (image, request)
      return placePhoto(image, of: request, zoom: compare.zoom, in: box, clip: clip, into: &frame)
    case .failed(let reason):
      for (offset, line) in TextLayout.wrap("✗ " + reason, columns: box.width)
        .prefix(box.height).enumerated()
      {
        frame.buffer.put(line, x: box.x, y: box.y + offset, style: Palette.error, clip: clip)
      }
      return nil
    case .placeholder:
      if let shown = compare.shown[item.id] {
        return placePhoto(
          shown.image, of: shown.request, zoom: compare.zoom, in: box, clip: clip, into: &frame)
      }
      frame.buffer.put("Loading image…", x: box.x, y: box.y, style: Palette.dim, clip: clip)
      return nil
    }
  }
}
