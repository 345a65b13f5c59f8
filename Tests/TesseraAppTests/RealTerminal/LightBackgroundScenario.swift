import Foundation
import TesseraGeometry
import Testing

/// The gallery on a light terminal (black on white, xterm's default): the month header, the
/// captions and the bars all read. Before, the header was bold white on white.
enum LightBackgroundScenario {
  static func run(_ kind: RealTerminalKind) throws {
    let root = try PinnedHeaderScenario.mayFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    let columns = RealTerminalScenarios.columns
    let terminal = try RealTerminal(
      kind,
      arguments: [root.path, "--graphics", "sixel", "--no-disk-cache", "--columns", "4"],
      columns: columns, rows: RealTerminalScenarios.rows, colours: .blackOnWhite)
    let screen = try terminal.waitFor("May's photos") {
      $0.text.contains("May 2024 · 48 photos") && $0.settled
    }
    let lines = screen.text.split(separator: "\n", omittingEmptySubsequences: false)
    let row = try #require(
      lines.firstIndex { $0.contains("May 2024 · 48 photos") }, "no header line in \(lines)")
    let text = String(lines[row])
    let start = text.distance(
      from: text.startIndex, to: try #require(text.range(of: "May 2024")).lowerBound)
    let length = "May 2024 · 48 photos".count
    // The header's cells: ink is a pixel far darker than the white around it.
    var ink = 0
    var total = 0
    for y in (row * screen.cellHeight)..<((row + 1) * screen.cellHeight) {
      for x in (start * screen.cellWidth)..<((start + length) * screen.cellWidth) {
        let pixel = screen.pixels[x, y]
        if Int(pixel.red) + Int(pixel.green) + Int(pixel.blue) < 3 * 128 { ink += 1 }
        total += 1
      }
    }
    // Text covers about a tenth to a third of its cells; white on white covers none.
    #expect(ink * 100 >= total * 5, "the month header has \(ink) dark pixels of \(total)")
    // The background around it is the terminal's white, not a box the gallery painted.
    let background = screen.pixels[(columns - 2) * screen.cellWidth, row * screen.cellHeight + 1]
    #expect(
      Int(background.red) + Int(background.green) + Int(background.blue) > 3 * 230,
      "the header row's background is \(background), not the terminal's white")
  }
}
