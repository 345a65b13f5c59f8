import Foundation
import TesseraTerminal
import Testing

@testable import TesseraGallery

/// The culling views in a real terminal, read back from screenshots: the compare view shows
/// each photo in its own pane undistorted, and the info panel hides the pictures under it.
enum CullingViewsScenario {
  /// `c` on the first photo: it and the next side by side, each pane its own picture, not
  /// stretched; a zoom shows both larger; Esc gives the grid back with every tile correct.
  static func compare(_ kind: RealTerminalKind) throws {
    let terminal = try RealTerminalScenarios.launch(kind)
    let grid = try terminal.waitFor("the grid", RealTerminalScenarios.ready(.tiles, minimum: 8))
    let first = try #require(grid.captions.first?.id, "no caption on the grid:\n\(grid.text)")
    try terminal.key("c")
    let compared = try terminal.waitFor("two photos side by side") {
      $0.text.contains("Tab next pane")
        && RealTerminalScenarios.ready(.tiles, minimum: 2)($0)
    }
    let panes = RealTerminalScenarios.shownWhole(compared, .tiles).sorted { $0.left < $1.left }
    #expect(
      panes.map(\.captionID) == [first, first + 1],
      "panes: \(panes)\n\(compared.text)")
    #expect(Set(panes.map(\.top)).count == 1, "the panes are not side by side: \(panes)")
    RealTerminalScenarios.expectEveryTileCorrect(compared, .tiles, minimum: 2)
    RealTerminalScenarios.expectUndistorted(compared, .tiles, minimum: 2)
    // Each pane is larger than a tile of the grid's four columns.
    let tileWidth = RealTerminalScenarios.shownWhole(grid, .tiles).map(\.width).max() ?? 0
    #expect(panes.allSatisfy { $0.width > tileWidth }, "panes \(panes), tiles \(tileWidth) px")

    try terminal.key("Tab", "plus")
    try terminal.waitFor("both zoomed") {
      $0.text.contains("×1.5") && $0.settled
    }
    try terminal.key("Escape")
    let back = try terminal.waitFor("the grid after compare") {
      !$0.text.contains("Tab next pane") && RealTerminalScenarios.ready(.tiles, minimum: 8)($0)
    }
    RealTerminalScenarios.expectEveryTileCorrect(back, .tiles, minimum: 8)
  }

  /// `i`: the panel over the grid's right side is the panel, not pictures; closed, every tile
  /// is whole again.
  static func infoPanel(_ kind: RealTerminalKind) throws {
    let terminal = try RealTerminalScenarios.launch(kind)
    try terminal.waitFor("the grid", RealTerminalScenarios.ready(.tiles, minimum: 8))
    try terminal.key("i")
    let shown = try terminal.waitFor("the info panel") { $0.text.contains("Info · i closes") }
    let box = try #require(
      panelBox(in: shown.text), "no panel's border in the text:\n\(shown.text)")
    RealTerminalScenarios.expectCardOnly(shown, in: box, what: "the info panel")
    try terminal.key("i")
    let closed = try terminal.waitFor("the grid after the panel") {
      !$0.text.contains("Info · i closes") && RealTerminalScenarios.ready(.tiles, minimum: 8)($0)
    }
    RealTerminalScenarios.expectEveryTileCorrect(closed, .tiles, minimum: 8)
  }

  /// The panel's box, read from its border in the screen's text.
  static func panelBox(in text: String) -> CellRect? {
    let rows = text.split(separator: "\n", omittingEmptySubsequences: false).map { Array($0) }
    guard let top = rows.firstIndex(where: { String($0).contains("Info · i closes") }),
      let left = rows[top].firstIndex(of: "┌"), let right = rows[top].lastIndex(of: "┐"),
      let bottom = rows.indices.first(where: {
        $0 > top && rows[$0].indices.contains(left) && rows[$0][left] == "└"
      })
    else { return nil }
    return CellRect(x: left, y: top, width: right - left + 1, height: bottom - top + 1)
  }
}
