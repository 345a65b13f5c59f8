import TesseraCollection
import TesseraImages
import TesseraPhotoFormats
import TesseraTerminal
import TesseraUtilities

/// The detail view (Enter on an item; Esc returns to the same place); the help card is
/// `HelpOverlay`.
extension GalleryScreen {
  /// The help card, and its box as an occluder: no image shows over it, in any protocol.
  func drawHelp(into frame: inout Frame) {
    if let box = HelpOverlay.draw(into: &frame.buffer, width: width, height: height) {
      frame.occluders.append(box)
    }
  }

  /// The detail view's image box: the viewport less a text block below (a local photo's
  /// facts take three more lines).
  var detailImageBox: CellRect {
    var isLocal = false
    if case .detail(let item) = overlay { isLocal = item.local != nil }
    return DetailOverlay.imageBox(in: viewportRect, width: width, isLocal: isLocal)
  }

  func bindDetailImage() {
    guard case .detail(let item) = overlay else { return }
    guard let request = photoRequest(for: item, in: detailImageBox, zoom: detail.zoom) else {
      detail.slot.prepareForReuse()
      return
    }
    detail.request = request
    detail.slot.bind(item: item.id, request: request, loader: loader)
    if item.local?.isVideo == true {
      // A new box (a resize) plays on from where the video was.
      let playing = detail.video.flatMap { $0.itemID == item.id ? $0 : nil }
      playVideo(
        of: item, request: request, from: playing?.position ?? .zero,
        paused: playing?.isPaused ?? false)
    } else {
      playAnimation(of: item, request: request)
    }
    needsDisplay = true
  }

  /// `item`'s photo at the pixel size of `box` times the zoom: zoomed, the photo is asked for
  /// at the zoomed size (more pixels, not enlarged ones). Nil when the item has no image.
  func photoRequest(for item: GalleryItem, in box: CellRect, zoom: PhotoZoom) -> ImageRequest? {
    let pixels = PixelSize(
      width: Int(
        clamping: Double(box.width * geometry.cellPixels.width) * zoom.factor, to: 1...65_535),
      height: Int(
        clamping: Double(box.height * geometry.cellPixels.height) * zoom.factor, to: 1...65_535))
    guard let url = item.imageURL(coveringWidth: pixels.width, height: pixels.height) else {
      return nil
    }
    return ImageRequest(
      url: url, targetSize: pixels, contentMode: .aspectFit, priority: .veryHigh,
      source: feed.imageSource)
  }

  func drawDetail(_ item: GalleryItem, into frame: inout Frame) {
    let area = viewportRect
    frame.buffer.fill(area, with: Cell(" ", style: .plain))
    // Earlier placements belong to the grid below the overlay.
    frame.images.removeAll()
    let box = detailImageBox
    if let video = detail.video, video.itemID == item.id, let shown = video.shown {
      placeDetailImage(
        shown.image, of: video.request, frame: video.shownCount, in: box, clip: area,
        into: &frame)
    } else if let playback = detail.playback, playback.itemID == item.id {
      placeDetailImage(
        playback.image, of: playback.request, frame: playback.frame,
        animation: playback.terminalAnimation, in: box, clip: area, into: &frame)
    } else {
      drawDetailPicture(of: item, in: box, clip: area, into: &frame)
    }
    drawDetailText(of: item, below: box, into: &frame)
  }

  /// The detail view's still picture, or what it says while there is none.
  private func drawDetailPicture(
    of item: GalleryItem, in box: CellRect, clip area: CellRect, into frame: inout Frame
  ) {
    switch detail.slot.content {
    case .image(let image):
      if let request = detail.request { detail.shown = (item.id, image, request) }
      placeDetailImage(image, of: detail.request, in: box, clip: area, into: &frame)
    case .failed(let reason):
      frame.buffer.put("✗ " + reason, x: box.x, y: box.y, style: Palette.error, clip: area)
    case .placeholder:
      if let shown = detail.shown, shown.itemID == item.id {
        placeDetailImage(shown.image, of: shown.request, in: box, clip: area, into: &frame)
      } else {
        frame.buffer.put("Loading image…", x: box.x, y: box.y, style: Palette.dim, clip: area)
      }
    }
  }

  private func drawDetailText(of item: GalleryItem, below box: CellRect, into frame: inout Frame) {
    let area = viewportRect
    var y = box.maxY + 1
    let textWidth = max(1, width - 4)
    frame.buffer.put(
      TextLayout.truncate(item.title, columns: textWidth), x: 2, y: y, style: Palette.title,
      clip: area)
    y += 1
    if item.local == nil {  // a local photo's facts below say it, and more
      frame.buffer.put(
        TextLayout.truncate(item.subtitle, columns: textWidth), x: 2, y: y, style: Palette.dim,
        clip: area)
      y += 1
    }
    var facts = item.local?.lines ?? []
    if let raw = rawPreviewLine(for: item) { facts.insert(raw, at: 0) }
    for line in facts + TextLayout.wrap(item.body, columns: textWidth) where y < area.maxY - 1 {
      frame.buffer.put(
        TextLayout.truncate(line, columns: textWidth), x: 2, y: y, style: Palette.caption,
        clip: area)
      y += 1
    }
    var keys = "Esc back · Space/⌫ next/previous · + - f zoom"
    if item.local?.isVideo == true {
      let position = detail.video.flatMap { $0.itemID == item.id ? $0 : nil }?
        .positionText
      keys = (position.map { $0 + " · " } ?? "") + "Space pause/play · ←/→ 5 s · Esc back"
    }
    if !detail.zoom.isFitted { keys += " \(detail.zoom.text) · h j k l pan" }
    keys += modes.slideshow.running == nil ? " · s slideshow" : " · s stop the slideshow"
    if item.local != nil { keys += " · o open · y copy path · d trash" }
    if item.local?.motion != nil {
      let playing = detail.video.flatMap { $0.itemID == item.id ? $0 : nil }
      keys =
        (playing.map { $0.positionText + " · p stops" } ?? "p plays its motion")
        + " · " + keys
    }
    frame.buffer.put(
      TextLayout.truncate(keys, columns: textWidth), x: 2, y: area.maxY - 1, style: Palette.dim,
      clip: area)
  }

  /// "RAW · embedded preview 1620×1080" for a camera RAW file, once its preview has loaded:
  /// what is shown is the camera's JPEG, not a development of the sensor data.
  private func rawPreviewLine(for item: GalleryItem) -> String? {
    guard let path = item.local?.path, let dot = path.lastIndex(of: "."),
      RawPreviewLocator.extensions.contains(path[path.index(after: dot)...].lowercased())
    else { return nil }
    guard let image = detail.shown?.image, detail.shown?.itemID == item.id else {
      return "RAW · embedded preview"
    }
    let size = image.originalSize
    return "RAW · embedded preview \(size.width)×\(size.height)"
  }

  /// The detail view's photo in `box`.
  private func placeDetailImage(
    _ image: TesseraImages.Image, of request: ImageRequest?, frame index: Int? = nil,
    animation: ImageAnimation? = nil, in box: CellRect, clip: CellRect, into frame: inout Frame
  ) {
    placePhoto(
      image, of: request, zoom: detail.zoom, frame: index, animation: animation, in: box,
      clip: clip, into: &frame)
  }

  /// `image` in `box` at `zoom`: fitted, or the window of a zoomed decode that the box shows.
  /// Returns the cells it takes.
  @discardableResult
  func placePhoto(
    _ image: TesseraImages.Image, of request: ImageRequest?, zoom: PhotoZoom,
    frame index: Int? = nil, animation: ImageAnimation? = nil, in box: CellRect, clip: CellRect,
    into frame: inout Frame
  ) -> CellRect? {
    guard let request,
      let bitmap = try? Bitmap(width: image.width, height: image.height, pixels: image.pixels)
    else { return nil }
    let view = zoom.view(
      heightPerWidth: cellHeightPerWidth(
        ofImage: Double(image.height) / Double(max(1, image.width))),
      in: box)
    let window = view.window
    let crop = CellRect(
      x: Int(clamping: window.x * Double(image.width), to: 0...max(0, image.width - 1)),
      y: Int(clamping: window.y * Double(image.height), to: 0...max(0, image.height - 1)),
      width: Int(clamping: window.width * Double(image.width), to: 1...max(1, image.width)),
      height: Int(clamping: window.height * Double(image.height), to: 1...max(1, image.height)))
    let whole = crop.width == image.width && crop.height == image.height
    let shown =
      whole ? bitmap : bitmap.cropped(x: crop.x, y: crop.y, width: crop.width, height: crop.height)
    // A window of the image is other pixels than the whole: its own id, so no terminal
    // reuses the whole image's upload for it.
    let id = ImageIdentity.id(for: request, crop: whole ? nil : crop, frame: index)
    frame.images.append(
      ImagePlacement(
        imageID: id, bitmap: shown, rect: view.rect, clip: clip,
        animation: whole ? animation : nil))
    return view.rect
  }
}
