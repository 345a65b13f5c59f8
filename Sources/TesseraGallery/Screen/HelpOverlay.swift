import TesseraTerminal

/// The help card (`?`): the keys, in a box centred over the screen.
enum HelpOverlay {
  static let lines = [
    "j k ↓ ↑  wheel     scroll (presses add up)",
    "h l ← →  K J       move the selection; K J: up / down",
    "Space PgDn / PgUp  page down / up",
    "g Home / G End     first / last item",
    "Enter  click       open the selected item; Esc back",
    "L  + -             next layout (grid, list, waterfall), columns",
    "m / v / *          mark / mark as you move / invert marks",
    "0 1 2 3 4 5  x     stars (0: none), reject; in the XMP sidecar",
    "6 7 8 9            label red / yellow / green / blue",
    "#                  tags: a, -b adds a, removes b; Tab completes",
    "d / u              move to the Trash / undo the last d, rating, label or tags",
    "/  n N  Esc        filter: name, rating>=3 label:red tag:x…; next / prev., all",
    "t  S              months, with counts; open or close a burst's stack ▣",
    "c  Tab Shift-Tab   compare marked (or selected, next); Tab: the pane keys act on",
    "s                  slideshow from the selected photo",
    "i                  info: camera, lens, exposure, place, sidecar",
    "Ctrl-x KEY         the key-handler, marked paths in",
    "In a photo: Space ⌫ next / previous, + - f z zoom / fit / 100 %, h j k l pan",
    "            o open with xdg-open, y copy its path",
    "In a video: Space pause / play, ← → 5 s back / on",
    "            p plays a Live Photo's (or motion photo's) motion",
    "r                  refresh (retries failures)",
    "Ctrl-L / Ctrl-Z    redraw the screen / suspend (fg resumes)",
    "?  q  Ctrl-C       this help, quit, quit printing nothing",
  ]

  /// The card's box on a screen of `width` × `height` cells; nil when it does not fit.
  static func rect(width: Int, height: Int) -> CellRect? {
    let boxWidth = min(
      width - 2, (lines.map { GraphemeWidth.columns(of: $0) }.max() ?? 0) + 4)
    let boxHeight = min(height - 2, lines.count + 4)
    guard boxWidth > 4, boxHeight > 2 else { return nil }
    return CellRect(
      x: (width - boxWidth) / 2, y: (height - boxHeight) / 2, width: boxWidth, height: boxHeight)
  }

  /// Draws the card over a screen of `width` × `height` cells and returns its box, which no
  /// image may show over; nothing when it does not fit.
  @discardableResult
  static func draw(into buffer: inout FrameBuffer, width: Int, height: Int) -> CellRect? {
    guard let rect = rect(width: width, height: height) else { return nil }
    buffer.fill(rect, with: Cell(" ", style: GalleryScreen.Palette.bar))
    buffer.box(rect, style: GalleryScreen.Palette.bar)
    buffer.put(" Keys ", x: rect.x + 2, y: rect.y, style: GalleryScreen.Palette.bar)
    for (offset, line) in lines.enumerated() where offset < rect.height - 4 {
      buffer.put(
        line, x: rect.x + 2, y: rect.y + 2 + offset, style: GalleryScreen.Palette.bar,
        clip: CellRect(x: rect.x + 1, y: rect.y + 1, width: rect.width - 2, height: rect.height - 2)
      )
    }
    return rect
  }
}
