import Testing

@testable import TesseraCollection

@MainActor
@Suite struct GridLayoutTests {
  /// Seed 000's formula, cellWidth = (W − (n+1)·span) / n, in whole units: every column is
  /// that width rounded down or up, the gaps are exactly `span`, and the last column ends
  /// exactly at W − span (no "−1 error margin", no ragged edge).
  @Test(arguments: [80, 81, 82, 83, 97, 120, 33, 200])
  func columnsFillTheWidthExactly(width: Int) {
    let layout = GridLayout(columns: .fixed(4), spacing: 2, heightPerWidth: 1.2)
    layout.prepare(SectionedContent(itemCounts: [10]), width: width, reason: .reload)
    let columns = layout.columnFrames
    let exact = Double(width - 5 * 2) / 4
    #expect(columns.count == 4)
    #expect(columns[0].x == 2)
    for (index, column) in columns.enumerated() {
      #expect(column.width == Int(exact.rounded(.down)) || column.width == Int(exact.rounded(.up)))
      if index > 0 { #expect(column.x == columns[index - 1].x + columns[index - 1].width + 2) }
    }
    #expect(columns[3].x + columns[3].width == width - 2)
    // One height for the whole grid, so rows line up: round(nominal width × height per width).
    #expect(layout.itemHeight == Int((exact * 1.2).rounded()))
  }

  @Test func leftoverIsSpreadRatherThanPiledOnOneColumn() {
    let layout = GridLayout(columns: .fixed(4), spacing: 1, heightPerWidth: 1)
    // 4 columns, 5 spans: 80 − 5 = 75 = 4·18 + 3 → three columns of 19, one of 18.
    layout.prepare(SectionedContent(itemCounts: [4]), width: 80, reason: .reload)
    let widths = layout.columnFrames.map(\.width)
    #expect(widths.sorted() == [18, 19, 19, 19])
    #expect(widths.max()! - widths.min()! <= 1)
  }

  /// A caption's line under each picture: the added height is not scaled with the width.
  @Test func anAddedHeightIsAddedToEveryCellAndItsRows() {
    let layout = GridLayout(columns: .fixed(3), spacing: 1, heightPerWidth: 0.5, addedHeight: 1)
    layout.prepare(SectionedContent(itemCounts: [4]), width: 31, reason: .reload)
    // 9 × 0.5 = 4.5 rounds to 5, and 1.
    #expect(layout.itemHeight == 6)
    #expect(layout.frame(of: .item(IndexPath(item: 3, section: 0)))?.y == 1 + 6 + 1)
    #expect(GridLayout(columns: .fixed(1), addedHeight: -5).addedHeight == 0)
    #expect(GridLayout(columns: .fixed(1), addedHeight: .max).addedHeight == 1_000)
  }

  @Test func itemsFlowRowByRowWithSpacingAroundEveryRow() {
    let layout = GridLayout(columns: .fixed(3), spacing: 1, heightPerWidth: 0.5)
    layout.prepare(SectionedContent(itemCounts: [7]), width: 31, reason: .reload)
    // (31 − 4) / 3 = 9 wide; 9 × 0.5 = 4.5 rounds to 5 high.
    #expect(layout.itemHeight == 5)
    let frames = (0..<7).map { layout.frame(of: .item(IndexPath(item: $0, section: 0)))! }
    #expect(frames[0] == Rect(x: 1, y: 1, width: 9, height: 5))
    #expect(frames[1] == Rect(x: 11, y: 1, width: 9, height: 5))
    #expect(frames[2] == Rect(x: 21, y: 1, width: 9, height: 5))
    #expect(frames[3] == Rect(x: 1, y: 7, width: 9, height: 5))
    #expect(frames[6] == Rect(x: 1, y: 13, width: 9, height: 5))
    #expect(layout.contentHeight == 1 + 3 * 6)
  }

  @Test func queriesMatchABruteForceScanIncludingSupplementaryViews() {
    let layout = GridLayout(columns: .fixed(4), spacing: 1, heightPerWidth: 0.75)
    let content = SectionedContent(
      itemCounts: [9, 0, 13, 4], sectionHeaderHeights: [2, 3, 0, 1],
      sectionFooterHeights: [1, 0, 2, 0], collectionHeaderHeight: 4, collectionFooterHeight: 2)
    layout.prepare(content, width: 41, reason: .reload)
    var all: [LayoutElement] = []
    layout.elements(intersecting: 0..<layout.contentHeight, into: &all)
    #expect(all.count == 26 + 3 + 2 + 2)
    for top in stride(from: -3, to: layout.contentHeight + 3, by: 2) {
      for height in [1, 5, 17] {
        let band = top..<(top + height)
        var found: [LayoutElement] = []
        layout.elements(intersecting: band, into: &found)
        #expect(Set(found) == Set(all.filter { $0.frame.intersects(band) }))
        let items = layout.itemRange(intersecting: band)
        for element in found {
          if case .item(let path) = element.id {
            #expect(items.contains(content.flatIndex(of: path)!))
          }
        }
      }
    }
  }

  @Test func widthChangeRecomputesColumns() {
    let source = TestDataSource(count: 100)
    let view = makeCollectionView(
      source, layout: GridLayout(columns: .adaptive(minimumWidth: 10), spacing: 1), width: 45,
      height: 30)
    let grid = view.layout as! GridLayout
    #expect(grid.columnCount == 4)
    view.setViewport(width: 100, height: 30)
    view.layoutIfNeeded()
    #expect(grid.columnCount == 9)
    #expect(grid.columnFrames.last.map { $0.x + $0.width } == 99)
    for cell in view.visibleCells { #expect(cell.frame.maxX <= 99) }
  }

  @Test func degenerateWidthsNeitherCrashNorProduceEmptyColumns() {
    let layout = GridLayout(columns: .fixed(8), spacing: 3, heightPerWidth: .nan)
    for width in [0, 1, 5, 9] {
      layout.prepare(SectionedContent(itemCounts: [20]), width: width, reason: .reload)
      #expect(layout.columnCount >= 1)
      #expect(layout.columnFrames.allSatisfy { $0.width >= 1 })
      #expect(layout.itemHeight >= 1)
    }
  }
}
