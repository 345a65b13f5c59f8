import Foundation
import Testing

@testable import TesseraTerminal

/// Kitty's Unicode placeholders, which Debian 12's kitty 0.26 cannot draw, read back from what
/// tmux itself holds: each tile's cells must carry one image id (the foreground colour) and
/// number their own row and column in the image (the two diacritics), from the tile's
/// top-left, exactly where the layout puts the tile; no two tiles share an id.
@Suite(.serialized, .timeLimit(.minutes(5)))
struct KittyPlaceholderTmuxTests {
  struct Placeholder: Hashable {
    var id: Int
    var row: Int
    var column: Int
  }

  /// The placeholder in a captured cell, nil for any other text.
  static func placeholder(_ cell: Cell) -> Placeholder? {
    let scalars = Array(cell.text.unicodeScalars)
    guard scalars.count == 3, scalars[0] == KittyPlaceholder.placeholder,
      case .rgb(let colour) = cell.style.foreground,
      let row = KittyPlaceholder.diacritics.firstIndex(of: scalars[1].value),
      let column = KittyPlaceholder.diacritics.firstIndex(of: scalars[2].value)
    else { return nil }
    return Placeholder(
      id: Int(colour.red) << 16 | Int(colour.green) << 8 | Int(colour.blue), row: row,
      column: column)
  }

  @Test func tilesCarryTheirOwnImageNumberedCellByCell() throws {
    // No client is attached, so the outer terminal is unknown: `--graphics kitty` inside tmux
    // then assumes a kitty that draws placeholders.
    let tmux = try Tmux(
      command: [
        GalleryBinary.path, "gallery", "--graphics", "kitty", "--no-disk-cache", "--items", "200",
        "--latency", "fixed:5ms",
      ], columns: 120, rows: 40)
    let capture = try tmux.waitFor("the first screen of placeholders") { capture in
      GalleryEndToEndTests.settled(capture)
        && CapturedScreen(parsing: capture, width: 120).frame.cells.contains {
          Self.placeholder($0) != nil
        }
    }
    let screen = CapturedScreen(parsing: capture, width: 120)
    let captions = TileReader(capture).captions
    #expect(captions.count >= 8)
    var ids: [Int: Int] = [:]
    var checked = 0
    for caption in captions where caption.y >= 2 {
      // The tile's image is the rows above its caption; its bottom-left cell names its row.
      guard let corner = Self.placeholder(screen[caption.x, caption.y - 1]) else {
        Issue.record("no placeholder above the caption of #\(caption.id)")
        continue
      }
      let top = caption.y - 1 - corner.row
      guard top >= 1 else { continue }  // cut by the viewport's top: numbered from off screen
      var width = 0
      while caption.x + width < screen.width,
        let cell = Self.placeholder(screen[caption.x + width, top]), cell.id == corner.id
      {
        width += 1
      }
      #expect(width >= 4, "tile #\(caption.id) is \(width) cells wide")
      for y in top..<caption.y {
        for x in caption.x..<(caption.x + width) {
          let cell = Self.placeholder(screen[x, y])
          #expect(
            cell == Placeholder(id: corner.id, row: y - top, column: x - caption.x),
            "tile #\(caption.id) cell (\(x),\(y)) holds \(String(describing: cell))")
        }
      }
      if let other = ids[corner.id] {
        Issue.record("tiles #\(other) and #\(caption.id) share image id \(corner.id)")
      }
      ids[corner.id] = caption.id
      checked += 1
    }
    #expect(checked >= 8, "only \(checked) tiles checked")
  }
}
