import Foundation
import TesseraImages
import TesseraTerminal
import Testing

@testable import TesseraGallery

/// The compare view's panes, zoom and chosen photo, headless: keys in, requests and frames
/// read.
@MainActor
@Suite(.inProcessScreen)
struct CompareViewTests {
  let finding = FindingAndDetailTests()

  func press(_ screen: GalleryScreen, _ keys: Key...) {
    for key in keys { _ = screen.handle(.key(key, [])) }
  }

  var ids: (GalleryScreen) -> [String] { { $0.compare.items.map(\.id) } }

  @Test func cComparesTheSelectedAndTheNextUnderOneZoom() async throws {
    let screen = await finding.screen()
    let items = screen.feed.items
    press(screen, .character("l"), .character("l"))
    press(screen, .character("c"))
    #expect(screen.overlay == .compare)
    #expect(ids(screen) == [items[2].id, items[3].id])
    #expect(screen.compare.focus == 0)
    let text = finding.local.text(screen).joined(separator: "\n")
    #expect(text.contains("▶" + items[2].title) && text.contains(items[3].title), "\(text)")

    // Tab chooses the second pane; the grid's selection follows it.
    press(screen, .tab)
    #expect(screen.compare.focus == 1 && screen.selected == 3)
    press(screen, .backTab, .backTab)
    #expect(screen.compare.focus == 1, "Shift-Tab wraps")

    // One zoom for both: each photo is asked for 1.5 times larger; one pan moves both.
    let fitted = screen.compare.requests.prefix(2).map { $0?.targetSize }
    press(screen, .character("+"))
    let zoomed = screen.compare.requests.prefix(2).map { $0?.targetSize }
    for (before, after) in zip(fitted, zoomed) {
      let before = try #require(before)
      #expect(
        after?.width == Int(Double(before.width) * 1.5), "\(before) → \(String(describing: after))")
    }
    press(screen, .character("l"))
    #expect(screen.compare.zoom.centre.x > 0.5)
    press(screen, .character("f"))
    #expect(screen.compare.zoom.isFitted && screen.compare.zoom.centre.x == 0.5)

    // Space: the chosen pane's next photo that no pane shows; ⌫ back.
    press(screen, .space)
    #expect(ids(screen) == [items[2].id, items[4].id])
    press(screen, .backspace)
    #expect(ids(screen) == [items[2].id, items[3].id])
    press(screen, .backspace)
    #expect(ids(screen) == [items[2].id, items[1].id], "the photo already shown is passed over")

    press(screen, .escape)
    #expect(screen.overlay == .none && screen.selected == 1)
    #expect(screen.compare.items.isEmpty)
    #expect(screen.compare.slots.allSatisfy { $0.itemID == nil }, "the loads are let go")
  }

  @Test func cComparesTheFirstFourMarkedAndSaysSo() async {
    let screen = await finding.screen()
    let items = screen.feed.items
    for _ in 0..<5 { press(screen, .character("m"), .character("l")) }
    press(screen, .character("c"))
    #expect(ids(screen) == items.prefix(4).map(\.id))
    #expect(screen.status.message == "comparing the first 4 of the 5 marked photos")
    // A rating acts on the chosen pane alone, not on the marked photos.
    #expect(screen.photosToActOn.map(\.id) == [items[0].id])
  }

  @Test func theLastPhotoIsComparedWithTheOneBefore() async {
    let screen = await finding.screen()
    let items = screen.feed.items
    press(screen, .character("G"), .character("c"))
    #expect(ids(screen) == items.suffix(2).map(\.id))
    #expect(screen.compare.focus == 1)
  }

  @Test func panesAreSideBySideOrTwoRowsOfTwoWhicheverShowsThePhotosLarger() {
    // Landscape photos (0.33 rows per column in cells) on a wide, short screen: one row.
    let wide = CellRect(x: 1, y: 2, width: 300, height: 30)
    let inRow = CompareOverlay.panes(count: 4, in: wide, heightPerWidth: 0.33)
    #expect(Set(inRow.map(\.y)).count == 1, "\(inRow)")
    // The same photos on a screen about as tall as wide in cells: two rows of two.
    let tall = CellRect(x: 1, y: 2, width: 100, height: 60)
    let grid = CompareOverlay.panes(count: 4, in: tall, heightPerWidth: 0.33)
    #expect(Set(grid.map(\.y)).count == 2 && Set(grid.map(\.x)).count == 2, "\(grid)")
    for panes in [inRow, grid, CompareOverlay.panes(count: 3, in: tall, heightPerWidth: 0.33)] {
      for (index, pane) in panes.enumerated() {
        #expect(pane.x >= 1 && pane.y >= 2, "\(pane)")
        for other in panes[(index + 1)...] {
          #expect(
            pane.intersection(other).width * pane.intersection(other).height == 0,
            "\(pane) overlaps \(other)")
        }
      }
    }
    #expect(grid.allSatisfy { $0.maxX <= tall.maxX && $0.maxY <= tall.maxY }, "\(grid)")
    #expect(inRow.allSatisfy { $0.maxX <= wide.maxX && $0.maxY <= wide.maxY }, "\(inRow)")
  }

  @Test func onePhotoIsNothingToCompare() async {
    let screen = await finding.screen()
    // A filter that leaves one photo.
    screen.feed.filter.query = "june-3"
    #expect(screen.feed.items.count == 1)
    press(screen, .character("c"))
    #expect(screen.overlay == .none)
    #expect(screen.status.message?.hasPrefix("compare needs two photos") == true)
  }
}
