import TesseraUtilities
import Testing

@testable import TesseraCollection

@MainActor
@Suite(.timeLimit(.minutes(1))) struct FocusMovementTests {
  private func path(_ item: Int, _ section: Int = 0) -> IndexPath {
    IndexPath(item: item, section: section)
  }

  private func moves(
    _ view: CollectionView, from start: IndexPath, _ move: FocusMove
  ) throws -> IndexPath? {
    try view.focusItem(at: start)
    return view.moveFocus(move, animated: false)
  }

  @Test func aGridMovesByRowsAndColumnsAcrossSections() throws {
    // Three columns; section 0 has 7 items (rows 0-2, the last holding one), section 1 five.
    let source = TestDataSource(sections: [Array(0..<7), Array(7..<12)])
    source.headerHeight = 1
    let view = makeCollectionView(
      source, layout: GridLayout(columns: .fixed(3), spacing: 1), width: 31, height: 25)
    #expect(try moves(view, from: path(1), .down) == path(4))
    #expect(try moves(view, from: path(4), .up) == path(1))
    #expect(try moves(view, from: path(1), .up) == path(1))  // the top row: stays
    #expect(try moves(view, from: path(5), .down) == path(6))  // short last row: nearest
    #expect(try moves(view, from: path(6), .down) == path(0, 1))  // over the header
    #expect(try moves(view, from: path(1, 1), .up) == path(6))
    #expect(try moves(view, from: path(4, 1), .down) == path(4, 1))  // the end
    #expect(try moves(view, from: path(1), .right) == path(2))
    #expect(try moves(view, from: path(2), .right) == path(3))  // the row's end: reading order
    #expect(try moves(view, from: path(3), .left) == path(2))
    #expect(try moves(view, from: path(0), .left) == path(0))
    #expect(try moves(view, from: path(6), .next) == path(0, 1))
    #expect(try moves(view, from: path(0, 1), .previous) == path(6))
    #expect(try moves(view, from: path(5), .first) == path(0))
    #expect(try moves(view, from: path(0), .last) == path(4, 1))
  }

  /// In a waterfall, up and down stay in the column: the neighbour above or below is the
  /// previous or next item placed in the same column, found from the frames.
  @Test func aWaterfallMovesUpAndDownItsColumns() throws {
    let (view, source) = makeSeededWaterfall(
      count: 80, columns: 4, seed: 11, shapes: 0.3...3, width: 41, height: 30)
    defer { withExtendedLifetime(source) {} }
    let frames = (0..<80).map { view.frameForItem(at: path($0))! }
    var checked = 0
    for column in Set(frames.map(\.x)) {
      let stack = frames.indices.filter { frames[$0].x == column }.sorted {
        frames[$0].y < frames[$1].y
      }
      for (above, below) in zip(stack, stack.dropFirst()) {
        #expect(try moves(view, from: path(above), .down) == path(below))
        #expect(try moves(view, from: path(below), .up) == path(above))
        checked += 1
      }
    }
    #expect(checked > 60)
    // Sideways: the nearest tile crossing the centre line, never one in a farther column.
    for item in 0..<80 {
      guard let next = try moves(view, from: path(item), .right), next != path(item + 1),
        next != path(item)
      else {
        continue
      }
      let from = frames[item]
      let to = frames[next.item]
      #expect(to.x >= from.maxX)
      #expect(to.y <= from.y + from.height / 2 && from.y + from.height / 2 < to.maxY)
    }
  }

  /// After every move, however it scrolled, the focused item is wholly on screen — in a
  /// self-sizing list whose rows were estimates until they came on screen, with pinned
  /// headers over it.
  @Test func theFocusIsAlwaysWhollyVisibleAfterAMove() throws {
    var random = SplitMix64(seed: 3)
    let sections = (0..<6).map { section in Array((section * 40)..<(section * 40 + 40)) }
    let source = TestDataSource(sections: sections)
    for id in 0..<240 { source.heights[id] = Int.random(in: 1...6, using: &random) }
    source.headerHeight = 1
    let view = makeCollectionView(
      source, layout: ListLayout(estimatedItemHeight: 2), width: 20, height: 24)
    view.pinsSectionHeaders = true
    let choices: [FocusMove] = [.down, .down, .down, .up, .pageDown, .pageUp, .next, .last, .first]
    for _ in 0..<300 {
      let move = choices[Int.random(in: 0..<choices.count, using: &random)]
      let focused = try #require(view.moveFocus(move, animated: Bool.random(using: &random)))
      for _ in 0..<200 where view.scrollPhase != .idle {
        view.tick(by: 8)
        view.layoutIfNeeded()
      }
      view.layoutIfNeeded()
      let cell = try #require(view.visibleCells.first { $0.indexPath == focused }, "\(move)")
      let header = view.visibleSupplementaryViews.first {
        $0.kind == .sectionHeader && $0.section == focused.section
      }
      let top = header.map { max(0, $0.frame.maxY) } ?? 0
      #expect(cell.frame.y >= top, "\(move) to \(focused)")
      #expect(cell.frame.maxY <= view.viewportHeight, "\(move) to \(focused)")
    }
  }

  @Test func aPageMovesTheFocusAboutAScreen() throws {
    let source = TestDataSource(count: 100)
    let view = makeCollectionView(
      source, layout: GridLayout(columns: .fixed(2), spacing: 1), width: 21, height: 40)
    try view.focusItem(at: path(1))
    let start = try #require(view.frameForItem(at: path(1)))
    let paged = try #require(view.moveFocus(.pageDown, animated: false))
    let end = try #require(view.frameForItem(at: paged))
    #expect(end.x == start.x)  // the same column
    #expect(abs(end.y - start.y - 40) <= end.height)
    #expect(view.moveFocus(.pageUp, animated: false) == path(1))
  }

  @Test func aFocusLeftBehindByScrollingComesOnScreen() throws {
    let source = TestDataSource(count: 100)
    let view = makeCollectionView(
      source, layout: GridLayout(columns: .fixed(2), spacing: 1), width: 21, height: 40)
    try view.focusItem(at: path(3))
    #expect(!view.keepFocusOnScreen())
    view.setContentOffset(200)
    view.layoutIfNeeded()
    #expect(view.keepFocusOnScreen())
    let focused = try #require(view.focusedIndexPath)
    let cell = try #require(view.visibleCells.first { $0.indexPath == focused })
    #expect(cell.frame.y >= 0)
    #expect(view.visibleCells.allSatisfy { $0.frame.y < 0 || $0.indexPath >= focused })
  }
}
