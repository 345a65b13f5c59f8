import TesseraServer
import TesseraTerminal

/// Reads a captured gallery screen the way the tests' eyes do: finds each tile by its caption
/// ("#ID title"), finds the image cells that belong to it, and decodes the id marker the
/// server painted along the image's top and left edges.
struct TileReader {
  /// One tile whose whole image is on screen.
  struct Tile: CustomStringConvertible {
    let captionID: Int
    /// The id the pixels say, nil while the tile shows a placeholder or a failure.
    let markerID: Int?
    let x: Int
    let y: Int

    var showsOwnImage: Bool { markerID == captionID % IdMarker.modulus }
    var description: String {
      "#\(captionID) at (\(x),\(y)) shows \(markerID.map(String.init) ?? "no image")"
    }
  }

  enum Layout {
    /// Grid and waterfall: the caption sits under the image, at the tile's left edge.
    case tiles
    /// List: the thumbnail starts at column 1 of the caption's row.
    case list
  }

  let screen: CapturedScreen

  init(_ capture: String) {
    screen = CapturedScreen(parsing: capture)
  }

  static let imageGlyph = "▀"

  /// Captions on screen: (column, row, id).
  var captions: [(x: Int, y: Int, id: Int)] {
    var found: [(Int, Int, Int)] = []
    for y in 1..<max(1, screen.height - 1) {
      let row = Array(screen.text(ofRow: y))
      var x = 0
      while x < row.count {
        // The compare view marks its chosen pane with ▶ right before the caption.
        let startsWord = x == 0 || row[x - 1] == " " || row[x - 1] == "▶"
        if row[x] == "#", startsWord, x + 1 < row.count, row[x + 1].isNumber {
          var end = x + 1
          while end < row.count, row[end].isNumber { end += 1 }
          if end == row.count || row[end] == " ", let id = Int(String(row[(x + 1)..<end])) {
            found.append((x, y, id))
          }
          x = end
        } else {
          x += 1
        }
      }
    }
    return found
  }

  /// Tiles whose image's top-left cell is on screen, with what it shows.
  ///
  /// A grid tile reaching the viewport's first row counts only when it is as tall as the
  /// tiles below it (otherwise its top may be scrolled off); a list thumbnail starts on its
  /// caption's row, so it is always whole.
  func tiles(_ layout: Layout) -> [Tile] {
    let found: [(caption: (x: Int, y: Int, id: Int), top: Int)] = captions.compactMap { caption in
      switch layout {
      case .list:
        return (caption, caption.y)
      case .tiles:
        var y = caption.y - 1
        guard y >= 1, isImageOrPlaceholder(x: caption.x, y: y) else { return nil }
        while y - 1 >= 1, isImageOrPlaceholder(x: caption.x, y: y - 1) { y -= 1 }
        return (caption, y)
      }
    }
    let fullHeight = found.filter { $0.top > 1 }.map { $0.caption.y - $0.top }.max() ?? 0
    return found.compactMap { entry in
      if layout == .tiles, entry.top == 1, entry.caption.y - entry.top < fullHeight { return nil }
      let x = layout == .list ? 1 : entry.caption.x
      return Tile(
        captionID: entry.caption.id, markerID: marker(x: x, y: entry.top), x: x, y: entry.top)
    }
  }

  private func isImageOrPlaceholder(x: Int, y: Int) -> Bool {
    guard x >= 0, x < screen.width, y >= 0, y < screen.height else { return false }
    let cell = screen[x, y]
    if cell.text == Self.imageGlyph { return true }
    // Placeholders and failures are filled cells with a background colour.
    if case .rgb = cell.style.background { return true }
    return false
  }

  private func marker(x: Int, y: Int) -> Int? {
    guard let pixels = screen.halfBlockPixels(x: x, y: y) else { return nil }
    return IdMarker.id(for: pixels.upper)
  }
}
