import Foundation
import TesseraCollection
import TesseraTerminal
import Testing

@testable import TesseraGallery

/// The gallery's cursor, clicks and month headers are the collection engine's focus,
/// hit-testing and pinned headers: headless, keys and clicks in, frames read as text.
@MainActor
@Suite(.inProcessScreen)
struct EngineSelectionTests {
  let finding = FindingAndDetailTests()

  private func settle(_ screen: GalleryScreen) -> [String] {
    for _ in 0..<2_000 where screen.tick(milliseconds: 8) {}
    return finding.local.text(screen)
  }

  @Test func theMonthHeaderStaysOverItsPhotosAsTheyScrollUnderIt() async {
    let screen = await finding.screen(april: 40)
    finding.press(screen, .end)
    let rows = settle(screen)
    // April's header is far above the screen, yet its title is on the viewport's first row,
    // alone: the tiles scrolling under it are cut there, captions and failures too.
    // (The last column is the position marker's.)
    #expect(
      String(rows[1].dropLast()).trimmingCharacters(in: .whitespaces) == "Apr 2024 · 40 photos")
    #expect(screen.collectionView.contentOffset > 40)
    let frame = screen.compose(framesPerSecond: 0, spinner: 0)
    #expect(frame.images.allSatisfy { ($0.clip?.y ?? 0) >= 2 })
    // Clicking the header selects nothing.
    let before = screen.selected
    _ = screen.handle(.mouse(MouseEvent(kind: .press(button: 0), column: 10, row: 1)))
    #expect(screen.selected == before)
    #expect(screen.overlay == .none)
  }

  @Test func aClickSelectsTheTileWhoseCaptionIsUnderIt() async throws {
    let screen = await finding.screen(april: 12)
    _ = settle(screen)
    let view = screen.collectionView
    let cells = view.visibleCells.filter { $0.frame.y >= 0 && $0.frame.maxY <= view.viewportHeight }
    #expect(cells.count > 5)
    // The first is selected already (a click on it would open it).
    for cell in cells.dropFirst().prefix(6) {
      let column = cell.frame.x + cell.frame.width / 2
      let row = cell.frame.y + 1 + cell.frame.height / 2
      _ = screen.handle(.mouse(MouseEvent(kind: .press(button: 0), column: column, row: row)))
      let rows = finding.local.text(screen)
      #expect(screen.overlay == .none)
      let caption = rows[cell.frame.maxY]  // the tile's last row, below the title bar
      #expect(caption.contains(screen.feed.items[screen.selected].title))
    }
  }

  @Test func shiftJAndKMoveByRowsAcrossMonths() async {
    let screen = await finding.screen()
    // Four columns: June's 6 photos are rows 0-3 and 4-5; May's 3 start the next section.
    _ = settle(screen)
    #expect(screen.selected == 0)
    finding.press(screen, .character("J"))
    #expect(screen.selected == 4)
    finding.press(screen, .character("J"))
    #expect(screen.selected == 6)  // May's first, under its header
    finding.press(screen, .character("K"))
    #expect(screen.selected == 4)
    finding.press(screen, .character("K"), .character("l"), .character("l"))
    #expect(screen.selected == 2)
    finding.press(screen, .character("J"))
    #expect(screen.selected == 5)  // June's short last row: the nearest tile in it
  }

  @Test func inAWaterfallJStaysInTheColumn() async throws {
    let screen = await finding.screen(april: 20)
    finding.press(screen, .character("L"), .character("L"))
    _ = settle(screen)
    let view = screen.collectionView
    for _ in 0..<4 {
      let from = try #require(view.focusedIndexPath.flatMap(view.frameForItem(at:)))
      finding.press(screen, .character("J"))
      let to = try #require(view.focusedIndexPath.flatMap(view.frameForItem(at:)))
      #expect(to.x == from.x)
      #expect(to.y >= from.maxY)
    }
  }
}
