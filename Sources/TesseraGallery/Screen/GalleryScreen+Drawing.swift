import Foundation
import TesseraCollection
import TesseraFeeds
import TesseraImages
import TesseraPhotoLibrary
import TesseraTerminal
import TesseraUtilities

/// What the terminal shows: title bar, tiles, status bar, and the overlays over them.
extension GalleryScreen {
  struct Frame {
    var buffer: FrameBuffer
    var images: [ImagePlacement]
    /// Overlay boxes no image may show over (`TerminalRenderer.render`'s occluders).
    var occluders: [CellRect] = []
  }

  struct Palette {
    static let bar = CellStyle(foreground: .rgb(230, 230, 230), background: .rgb(40, 44, 52))
    /// A heading on a bar's background (a panel's first line): bold, never the terminal's own
    /// background showing through the panel.
    static let barTitle = CellStyle(
      foreground: .rgb(230, 230, 230), background: .rgb(40, 44, 52), attributes: [.bold])
    // Captions and secondary text sit on the terminal's own background, light or dark. Captions
    // take the terminal's own foreground; secondary text a grey of relative luminance 0.18
    // (rgb 118), which has the same 4.6:1 contrast (WCAG AA) on black and on white. The lighter
    // greys before were near invisible in xterm's black-on-white default.
    static let caption = CellStyle()
    static let selected = CellStyle(
      foreground: .rgb(20, 20, 20), background: .rgb(250, 200, 80), attributes: [.bold])
    /// A marked photo's caption (`m`): dark on green, and a ● before it, so a mark reads in
    /// every protocol and without colour.
    static let marked = CellStyle(
      foreground: .rgb(20, 20, 20), background: .rgb(120, 210, 140), attributes: [.bold])
    static let placeholder = CellStyle(
      foreground: .rgb(120, 120, 120), background: .rgb(28, 28, 32))
    static let failure = CellStyle(foreground: .rgb(255, 110, 110), background: .rgb(45, 20, 20))
    /// A red of luminance 0.18 (rgb 220, 50, 50): 4.6:1 on black and on white.
    static let error = CellStyle(foreground: .rgb(220, 50, 50), attributes: [.bold])
    static let dim = CellStyle(foreground: .rgb(118, 118, 118))
    /// Month headers and titles: bold in the terminal's own foreground, which reads on its
    /// own background whatever the theme (white was invisible on xterm's black-on-white).
    static let title = CellStyle(attributes: [.bold])

    /// A colour label's mark: Lightroom's colours, bright enough on black and on white.
    static func label(_ label: PhotoCulling.Label) -> CellStyle {
      switch label {
      case .red: CellStyle(foreground: .rgb(220, 50, 50))
      case .yellow: CellStyle(foreground: .rgb(230, 190, 0))
      case .green: CellStyle(foreground: .rgb(40, 170, 60))
      case .blue: CellStyle(foreground: .rgb(50, 110, 230))
      case .purple: CellStyle(foreground: .rgb(160, 70, 200))
      case .other: CellStyle(foreground: .rgb(118, 118, 118))
      }
    }
  }

  /// The viewport's rows on screen: everything between the two bars.
  var viewportRect: CellRect { CellRect(x: 0, y: 1, width: width, height: max(0, height - 2)) }

  func compose(framesPerSecond: Int, spinner: Int) -> Frame {
    var frame = Frame(buffer: FrameBuffer(width: width, height: height), images: [])
    guard width > 0, height > 0 else { return frame }
    drawTitleBar(into: &frame.buffer)
    if feed.items.isEmpty {
      drawFeedState(into: &frame.buffer, spinner: spinner)
    } else {
      let clip = tileClip
      let selectedIndex = selected  // the engine's focus, asked once a frame
      for visible in collectionView.visibleCells {
        guard let cell = visible.cell as? any GalleryCell, let item = cell.item else { continue }
        draw(
          cell, item: item, isSelected: flatIndex(of: visible.indexPath) == selectedIndex,
          frame: visible.frame, clip: clip, into: &frame)
      }
      drawSectionHeaders(into: &frame.buffer)
      drawPositionMarker(into: &frame)
    }
    drawStatusBar(into: &frame.buffer, framesPerSecond: framesPerSecond)
    switch overlay {
    case .none: break
    case .help: drawHelp(into: &frame)
    case .detail(let item): drawDetail(item, into: &frame)
    case .monthIndex(let row): drawMonthIndex(chosen: row, into: &frame)
    case .compare: drawCompare(into: &frame)
    }
    drawInfo(into: &frame)
    return frame
  }

  // MARK: cells

  /// The viewport below the section header at its top: a pinned month header covers the
  /// tiles scrolling under it, their text and their pictures (an image is cut there, in
  /// every protocol, as at the viewport's edge).
  var tileClip: CellRect {
    let viewport = viewportRect
    let covered =
      collectionView.visibleSupplementaryViews.lazy
      .filter { $0.kind == .sectionHeader && $0.frame.y <= 0 }
      .map { max(0, $0.frame.maxY) }.max() ?? 0
    let top = min(covered, viewport.height)
    return CellRect(
      x: viewport.x, y: viewport.y + top, width: viewport.width, height: viewport.height - top)
  }

  private func draw(
    _ cell: some GalleryCell, item: GalleryItem, isSelected: Bool, frame cellFrame: Rect,
    clip: CellRect, into frame: inout Frame
  ) {
    let viewport = viewportRect
    let rect = CellRect(
      x: cellFrame.x, y: cellFrame.y + viewport.y, width: cellFrame.width,
      height: cellFrame.height)
    let isMarked = choices.marks.contains(item.id)
    let imageRect: CellRect
    switch layoutMode {
    case .grid, .waterfall:
      imageRect = CellRect(x: rect.x, y: rect.y, width: rect.width, height: max(1, rect.height - 1))
      drawCaption(
        of: item, x: rect.x, y: rect.maxY - 1, width: rect.width, isSelected: isSelected,
        isMarked: isMarked, clip: clip, into: &frame.buffer)
    case .list:
      let heightPerWidth = (cell as? RowCell)?.thumbnailHeightPerWidth ?? 0.5
      let thumbRows = RowCell.thumbnailRows(forHeightPerWidth: heightPerWidth)
      imageRect = CellRect(
        x: rect.x + 1, y: rect.y, width: RowCell.thumbnailWidth,
        height: min(max(1, rect.height - 1), thumbRows))
      drawRowText(
        item, in: rect, isSelected: isSelected, isMarked: isMarked, clip: clip,
        into: &frame.buffer)
    }
    drawImage(of: cell, item: item, in: imageRect, clip: clip, into: &frame)
  }

  /// A photo's caption line: stars, badges and its name; dimmed when rejected, and its colour
  /// label's mark in the first cell, as a lighttable's colour dot (the label's name is in the
  /// detail view, for a terminal without colour).
  func drawCaption(
    of item: GalleryItem, x: Int, y: Int, width: Int, isSelected: Bool, isMarked: Bool,
    clip: CellRect, into buffer: inout FrameBuffer
  ) {
    let caption = captionText(for: item, width: width, marked: isMarked)
    // A rejected photo's caption is dimmed, so a culled shoot reads at a glance.
    let plain = item.local?.isRejected == true ? Palette.dim : Palette.caption
    buffer.put(
      caption.padding(toLength: width, withPad: " ", startingAt: 0), x: x, y: y,
      style: isSelected ? Palette.selected : isMarked ? Palette.marked : plain, clip: clip)
    if let label = item.local?.label {
      buffer.put("▌", x: x, y: y, style: Palette.label(label), clip: clip)
    }
  }

  private func captionText(for item: GalleryItem, width: Int, marked: Bool) -> String {
    var text: String
    switch item.kind {
    case .photo: text = item.localIndex == nil ? "#\(item.id) \(item.title)" : item.title
    case .user: text = "\(item.title) · \(item.subtitle)"
    }
    if let tags = Self.tagsText(of: item) { text += " " + tags }
    // A RAW+JPEG pair says so on its tile, in every protocol.
    if item.local?.rawCompanion != nil { text = "RAW+ " + text }
    // So does a Live Photo or a motion photo, one item with its video.
    if let live = item.local?.motionBadge { text = live + " " + text }
    // A video's length is what a person looks for on its tile, in every protocol.
    if let badge = item.local?.badge { text = badge + " " + text }
    if let stars = item.local?.ratingMark { text = stars + " " + text }
    // A burst's stack: its count on the first photo's tile, closed.
    if let stack = stacks.badge(for: item.id) { text = stack + " " + text }
    if marked { text = "● " + text }
    if item.local?.label != nil { text = " " + text }  // where the label's mark goes
    return TextLayout.truncate(text, columns: width)
  }

  /// "#wedding #Ann": a photo's tags after its name, each path by its last level (the detail
  /// view and the info panel name the whole path); nil without tags.
  nonisolated static func tagsText(of item: GalleryItem) -> String? {
    guard let tags = item.local?.tags, !tags.isEmpty else { return nil }
    return tags.map { "#" + ($0.split(separator: "/").last.map(String.init) ?? $0) }
      .joined(separator: " ")
  }

  private func drawRowText(
    _ item: GalleryItem, in rect: CellRect, isSelected: Bool, isMarked: Bool, clip: CellRect,
    into buffer: inout FrameBuffer
  ) {
    let x = rect.x + RowCell.thumbnailWidth + 3
    let textWidth = max(0, rect.maxX - x)
    var heading: String
    switch item.kind {
    case .photo: heading = item.localIndex == nil ? "#\(item.id) \(item.title)" : item.title
    case .user: heading = item.title
    }
    if let stars = item.local?.ratingMark { heading = stars + " " + heading }
    if let tags = Self.tagsText(of: item) { heading += " " + tags }
    if isMarked { heading = "● " + heading }
    buffer.put(
      TextLayout.truncate(heading, columns: textWidth), x: x, y: rect.y,
      style: isSelected ? Palette.selected : isMarked ? Palette.marked : Palette.title,
      clip: clip)
    var subtitleStyle = Palette.dim
    if case .user(let role) = item.kind { subtitleStyle = RoleStyle.style(for: role) }
    buffer.put(
      TextLayout.truncate(item.subtitle, columns: textWidth), x: x, y: rect.y + 1,
      style: subtitleStyle, clip: clip)
    for (offset, line) in TextLayout.wrap(item.body, columns: textWidth).enumerated() {
      let y = rect.y + 2 + offset
      if y >= rect.maxY - 1 { break }
      buffer.put(line, x: x, y: y, style: Palette.caption, clip: clip)
    }
  }

  private func drawImage(
    of cell: some GalleryCell, item: GalleryItem, in rect: CellRect, clip: CellRect,
    into frame: inout Frame
  ) {
    switch cell.slot.content {
    case .image(let image):
      if let bitmap = try? Bitmap(width: image.width, height: image.height, pixels: image.pixels) {
        frame.buffer.fill(rect.intersection(clip), with: Cell(" ", style: Palette.placeholder))
        frame.images.append(
          ImagePlacement(imageID: cell.imageID, bitmap: bitmap, rect: rect, clip: clip))
      }
    case .failed(let reason):
      frame.buffer.fill(rect.intersection(clip), with: Cell(" ", style: Palette.failure))
      for (offset, line) in TextLayout.wrap("✗ " + reason, columns: max(1, rect.width - 2))
        .prefix(max(1, rect.height - 1)).enumerated()
      {
        frame.buffer.put(
          line, x: rect.x + 1, y: rect.y + offset, style: Palette.failure, clip: clip)
      }
    case .placeholder:
      frame.buffer.fill(rect.intersection(clip), with: Cell(" ", style: Palette.placeholder))
      let text = TextLayout.truncate(item.placeholder, columns: rect.width)
      frame.buffer.put(
        text, x: rect.x + max(0, (rect.width - GraphemeWidth.columns(of: text)) / 2),
        y: rect.y + rect.height / 2,
        style: Palette.placeholder, clip: clip)
    }
  }

  /// Each section's header on screen: its title in bold on the row above its items.
  private func drawSectionHeaders(into buffer: inout FrameBuffer) {
    let clip = viewportRect
    for header in collectionView.visibleSupplementaryViews where header.kind == .sectionHeader {
      guard feed.sections.indices.contains(header.section),
        let title = feed.sections[header.section].title
      else { continue }
      let count = feed.sections[header.section].range.count
      let text = " \(title) · \(count) photo\(count == 1 ? "" : "s")"
      // Pinned, it lies over tiles: its row is cleared first.
      buffer.fill(
        CellRect(
          x: header.frame.x, y: header.frame.y + clip.y, width: header.frame.width,
          height: header.frame.height
        ).intersection(clip), with: Cell(" "))
      buffer.put(
        TextLayout.truncate(text, columns: max(0, header.frame.width)), x: header.frame.x,
        y: header.frame.y + clip.y, style: Palette.title, clip: clip)
    }
  }

  // MARK: bars

  private func drawTitleBar(into buffer: inout FrameBuffer) {
    buffer.fill(CellRect(x: 0, y: 0, width: width, height: 1), with: Cell(" ", style: Palette.bar))
    let place = sectionAtTop.map { "\($0) · " } ?? ""
    let right =
      "\(place)\(layoutMode)\(layoutMode == .list ? "" : " · \(columns) cols") · ? keys "
    buffer.put(
      TextLayout.truncate(
        " Tessera · \(feed.title)", columns: max(0, width - GraphemeWidth.columns(of: right) - 1)),
      x: 0, y: 0, style: Palette.bar)
    buffer.put(right, x: max(0, width - GraphemeWidth.columns(of: right)), y: 0, style: Palette.bar)
  }

  private func drawStatusBar(into buffer: inout FrameBuffer, framesPerSecond: Int) {
    let y = height - 1
    guard y > 0 else { return }
    buffer.fill(CellRect(x: 0, y: y, width: width, height: 1), with: Cell(" ", style: Palette.bar))
    let state = feed.state
    var parts: [String] = []
    let visible = collectionView.indexPathsForVisibleItems.compactMap(flatIndex(of:))
    if let first = visible.min(), let last = visible.max() {
      parts.append("\(feed.noun) \(first + 1)–\(last + 1) of \(feed.items.count)")
    } else {
      parts.append("\(feed.noun) 0 of \(feed.items.count)")
    }
    if let progress = feed.progressText {
      parts.append(progress)
    } else if let hashing = stacks.hashing {
      parts.append("finding bursts \(hashing.done) of \(hashing.of)")
    } else if state.isLoading {
      parts.append("loading…")
    }
    if choices.marks.count > 0 || choices.marks.rangeStart != nil {
      parts.insert(
        "● \(choices.marks.count) marked"
          + (choices.marks.rangeStart != nil ? " (v: marking as you move)" : ""),
        at: 1)
    }
    if let message = status.message { parts.insert(message, at: 0) }
    if let filterInput = modes.filterInput {
      parts.insert(
        "/\(filterInput)▏ \(feed.items.count) match\(feed.items.count == 1 ? "" : "es")"
          + (feed.filter.problem.map { " · \($0)" } ?? "") + " · Enter keeps · Esc clears",
        at: 0)
    } else if let tagInput = modes.tagInput {
      parts.insert(tagInput.prompt(photos: photosToActOn.count), at: 0)
    } else if !feed.filter.query.isEmpty {
      parts.insert("filter “\(feed.filter.query)” · Esc shows all", at: 0)
    }
    if !choices.trashed.isEmpty, status.message == nil {
      parts.append("\(choices.trashed.joined().count) in the Trash · u puts back")
    }
    let statistics = loader.pipeline.statistics
    let lookups = statistics.memoryHits + statistics.memoryMisses
    let hitRate = lookups == 0 ? 0 : statistics.memoryHits * 100 / lookups
    // Prefetches are said too: until they end the pipeline is not at rest.
    let ahead = images.prefetchingItemCount
    var figures = [
      "✓ \(loader.loaded) loaded ⟳ \(loader.inFlight) in flight"
        + (ahead > 0 ? " (\(ahead) ahead)" : "") + " ✗ \(loader.failed) failed",
      "hits \(hitRate)%", ByteCount.rounded(statistics.bytesDownloaded),
    ]
    if let link = status.link { figures.append(link) }
    figures.append("\(framesPerSecond) fps")
    parts.append(status.figures.show(figures.joined(separator: " │ ")))
    // Entries the feed sent that cannot be shown are said here, with the first reason (last,
    // so a long reason never hides the counters).
    if state.skipped > 0 {
      parts.append("⚠ \(state.skipped) skipped: \(state.firstSkipped ?? "invalid entries")")
    }
    var text = " " + parts.joined(separator: " │ ")
    var style = Palette.bar
    if let failure = state.failure, !feed.items.isEmpty {
      text = " ✗ \(failure) — r retries │ " + parts.joined(separator: " │ ")
      style = CellStyle(foreground: .rgb(255, 140, 140), background: .rgb(40, 44, 52))
    }
    buffer.put(TextLayout.truncate(text, columns: width), x: 0, y: y, style: style)
  }

  private func drawFeedState(into buffer: inout FrameBuffer, spinner: Int) {
    let state = feed.state
    let area = viewportRect
    var lines: [(String, CellStyle)] = []
    if let failure = state.failure {
      lines = [(failure, Palette.error), ("Press r to retry, q to quit.", Palette.dim)]
    } else if state.isLoading || !feedProgress.hasLoadedOnce {
      let frames = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]
      lines = [("\(frames[spinner % frames.count]) Loading \(feed.noun)…", Palette.title)]
    } else {
      lines = [("The feed has no \(feed.noun).", Palette.dim), ("Press r to reload.", Palette.dim)]
    }
    let top = area.y + max(0, (area.height - lines.count) / 2)
    for (offset, line) in lines.enumerated() {
      let text = TextLayout.truncate(line.0, columns: width - 2)
      buffer.put(
        text, x: max(0, (width - GraphemeWidth.columns(of: text)) / 2), y: top + offset,
        style: line.1, clip: area)
    }
  }
}

/// Roles in colour, so a list of users reads at a glance (a role label).
enum RoleStyle {
  static func style(for role: TesseraFeeds.Role) -> CellStyle {
    switch role {
    case .admin: CellStyle(foreground: .rgb(255, 120, 120), attributes: [.bold])
    case .owner: CellStyle(foreground: .rgb(250, 200, 80), attributes: [.bold])
    case .user: CellStyle(foreground: .rgb(140, 200, 255))
    case .unknown: GalleryScreen.Palette.dim
    }
  }
}
