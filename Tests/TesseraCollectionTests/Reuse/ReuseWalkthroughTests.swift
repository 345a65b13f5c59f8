import TesseraUtilities
import Testing

@testable import TesseraCollection

/// Seed 003's walk-through of the reuse pool, step by step: 8 rows on screen, swipe up one
/// row, then one page.
@MainActor
@Suite struct ReuseWalkthroughTests {
  /// 100 rows of 10 units in an 80-unit viewport: exactly 8 rows on screen.
  private func tableOfEightRows() -> (TestDataSource, CollectionView) {
    let source = TestDataSource(count: 100)
    for id in 0..<100 { source.heights[id] = 10 }
    let view = makeCollectionView(
      source, layout: ListLayout(estimatedItemHeight: 10), width: 20, height: 80)
    return (source, view)
  }

  @Test func startingOutAllocatesOneCellPerVisibleRow() {
    let (source, view) = tableOfEightRows()
    #expect(source.log == (0..<8).map { "new#\($0) [0, \($0)]" })
    #expect(view.createdViewCount == 8)
    for cell in view.visibleCells {
      #expect(view.indexPath(for: cell.cell) == cell.indexPath)
      #expect(cell.frame.y == cell.indexPath.item * 10)
    }
  }

  @Test func rowZeroLeavesAndRowEightGetsItsCell() throws {
    let (source, view) = tableOfEightRows()
    let rowZeroCell = try #require(
      view.cellForItem(at: IndexPath(item: 0, section: 0)) as? TestCell)
    source.clearLog()
    view.scroll(by: 10, animated: false)
    view.layoutIfNeeded()
    // Row 0 went into the pool first, then row 8 dequeued that very cell.
    #expect(source.log == ["reuse#0 [0, 8]"])
    #expect(source.events == ["didScroll", "didEndDisplaying [0, 0]", "willDisplay [0, 8]"])
    #expect(view.indexPath(for: rowZeroCell) == IndexPath(item: 8, section: 0))
    // prepareForReuse ran before the data source configured it for row 8.
    #expect(rowZeroCell.prepareCount == 1)
    #expect(rowZeroCell.item == 8)
    #expect(view.createdViewCount == 8)
  }

  @Test func aWholePageReusesEveryCellInTheOrderTheyLeft() {
    let (source, view) = tableOfEightRows()
    view.scroll(by: 10, animated: false)
    view.layoutIfNeeded()
    source.clearLog()
    view.pageDown(animated: false)
    view.layoutIfNeeded()
    // Rows 1…8 left top to bottom; rows 9…16 took their cells in that order.
    #expect(source.log == (1..<8).map { "reuse#\($0) [0, \($0 + 8)]" } + ["reuse#0 [0, 16]"])
    #expect(view.createdViewCount == 8)
    #expect(view.indexPathsForVisibleItems == (9..<17).map { IndexPath(item: $0, section: 0) })
  }

  @Test func aNinthCellExistsOnlyWhileNineRowsShowAndHasNoIndexPathOffScreen() throws {
    let (source, view) = tableOfEightRows()
    view.scroll(by: 5, animated: false)
    view.layoutIfNeeded()
    // Half of row 0 and half of row 8 show: nine rows, the pool was empty, so a new cell.
    #expect(source.log.last == "new#8 [0, 8]")
    #expect(view.visibleCells.count == 9)
    let ninth = try #require(view.cellForItem(at: IndexPath(item: 8, section: 0)))
    view.scroll(by: -5, animated: false)
    view.layoutIfNeeded()
    // Back to eight rows: the ninth cell is alive in the pool, off screen, index path nil.
    #expect(view.indexPath(for: ninth) == nil)
    #expect(view.freeCount(of: TestCell.self) == 1)
    #expect(view.createdViewCount == 9)
  }

  @Test func typesArePooledApartAndInferredFromTheCallSite() {
    let source = TestDataSource(count: 40)
    source.otherCellItems = Set(stride(from: 0, to: 40, by: 2))
    let view = makeCollectionView(
      source, layout: ListLayout(estimatedItemHeight: 10), width: 20, height: 40)
    #expect(view.createdCount(of: TestCell.self) == 2)
    #expect(view.createdCount(of: OtherCell.self) == 2)
    view.scroll(by: 20, animated: false)
    view.layoutIfNeeded()
    #expect(view.createdCount(of: TestCell.self) == 2)
    #expect(view.createdCount(of: OtherCell.self) == 2)
    for cell in view.visibleCells {
      let expected = source.item(at: cell.indexPath)
      if expected % 2 == 0 {
        #expect((cell.cell as? OtherCell)?.item == expected)
      } else {
        #expect((cell.cell as? TestCell)?.item == expected)
      }
    }
    #expect(view.isRegistered(TestCell.self))
    #expect(!view.isRegistered(OtherCell.self))
  }

  @Test func allocatedCellsStayBoundedOverALongRandomScroll() {
    let source = TestDataSource(count: 100_000)
    var random = SplitMix64(seed: 7)
    for id in 0..<100_000 { source.heights[id] = Int.random(in: 1...6, using: &random) }
    let view = makeCollectionView(
      source, layout: ListLayout(estimatedItemHeight: 3), width: 30, height: 40)
    var mostOnScreen = 0
    for _ in 0..<2_000 {
      switch Int.random(in: 0..<4, using: &random) {
      case 0: view.scroll(by: Double.random(in: -200...200, using: &random), animated: false)
      case 1:
        view.beginDrag()
        view.drag(by: Double.random(in: -30...30, using: &random))
        view.endDrag(velocity: Double.random(in: -3...3, using: &random))
      case 2:
        try? view.scrollToItem(
          IndexPath(item: Int.random(in: 0..<100_000, using: &random), section: 0),
          at: .center)
      default: view.tick(by: 16)
      }
      view.tick(by: 8)
      view.layoutIfNeeded()
      mostOnScreen = max(mostOnScreen, view.visibleCells.count)
    }
    // Leaving cells are pooled before entering ones are dequeued: never more than the most
    // ever on screen at once.
    #expect(view.createdViewCount <= mostOnScreen)
    #expect(mostOnScreen <= 41)
  }
}
