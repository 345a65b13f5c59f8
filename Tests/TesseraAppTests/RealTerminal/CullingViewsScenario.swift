import Foundation
import TesseraTerminal
import TesseraTestSupport
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

  /// A burst of three photos is one tile, ▣3 on its caption and its picture above; `S` shows
  /// the three frames, each with its picture.
  static func stacks(_ kind: RealTerminalKind) throws {
    let root = TemporaryFolder.make(prefix: "tessera-rt-stacks")
    defer { try? FileManager.default.removeItem(at: root) }
    try BurstStacksTests.writeBurst(in: root)
    let terminal = try RealTerminal(
      kind, arguments: [root.path, "--graphics", "kitty", "--no-disk-cache"],
      columns: RealTerminalScenarios.columns, rows: RealTerminalScenarios.rows)
    let stacked = try terminal.waitFor("the burst as one pictured tile") {
      $0.settled && $0.text.contains("▣3 a3.jpg") && pictured($0, ["a3.jpg", "b.jpg", "c.jpg"])
    }
    #expect(
      !stacked.text.contains("a2.jpg") && !stacked.text.contains("a1.jpg"), "\(stacked.text)")
    try terminal.key("Right", "Right", "S")
    try terminal.waitFor("the burst's three frames, each pictured") {
      $0.settled && $0.text.contains("▣ a1.jpg")
        && pictured($0, ["a1.jpg", "a2.jpg", "a3.jpg", "b.jpg", "c.jpg"])
    }
  }

  /// Each name is on screen with a picture above it: the cell over its first letter is neither
  /// the terminal's background nor the placeholder's.
  static func pictured(_ screen: RealTerminalScreen, _ names: [String]) -> Bool {
    let rows = screen.text.split(separator: "\n", omittingEmptySubsequences: false).map {
      Array($0)
    }
    return names.allSatisfy { name in
      let letters = Array(name)
      for (y, row) in rows.enumerated() where y > 1 {
        guard
          let x = row.indices.first(where: { Array(row[$0...].prefix(letters.count)) == letters })
        else { continue }
        let mean = screen.pixels.mean(
          x: x * screen.cellWidth + screen.cellWidth / 2 - 2,
          y: (y - 1) * screen.cellHeight + screen.cellHeight / 2 - 2)
        return mean != RealTerminalScreen.background && mean != RealTerminalScreen.placeholder
      }
      return false
    }
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
