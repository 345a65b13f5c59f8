import Testing

@testable import TesseraCollection

/// Bad or empty input must neither crash nor show anything wrong.
@MainActor
@Suite struct EdgeCaseTests {
  private static func layouts() -> [any CollectionLayout] {
    [
      ListLayout(estimatedItemHeight: 0),
      GridLayout(columns: .fixed(0), spacing: -3, heightPerWidth: -1),
      GridLayout(columns: .adaptive(minimumWidth: 0)),
      WaterfallLayout(columns: 0, spacing: -1, defaultHeightPerWidth: .infinity),
    ]
  }

  @Test func emptyContentZeroViewportsAndNoDataSource() throws {
    for layout in Self.layouts() {
      let view = CollectionView(layout: layout, width: 0, height: 0)
      view.layoutIfNeeded()
      #expect(view.visibleCells.isEmpty)
      let source = TestDataSource(sections: [[], [], []])
      source.headerHeight = -4
      view.dataSource = source
      view.reloadData()
      view.scroll(by: 50, animated: false)
      view.pageDown()
      view.tick(by: 100)
      view.layoutIfNeeded()
      #expect(view.visibleCells.isEmpty)
      #expect(view.contentOffset == 0)
      #expect(throws: CollectionError.invalidIndexPath(IndexPath(item: 0, section: 0))) {
        try view.scrollToItem(IndexPath(item: 0, section: 0), at: .center)
      }
      view.setViewport(width: -5, height: -5)
      view.layoutIfNeeded()
      #expect(view.viewportWidth == 0)
    }
  }

  @Test func emptySectionsBetweenFullOnesAndAViewportTallerThanTheContent() throws {
    for layout in Self.layouts() {
      let source = TestDataSource(sections: [[], [0, 1], [], [2], []])
      let view = makeCollectionView(source, layout: layout, width: 30, height: 500)
      #expect(Set(view.visibleCells.map { source.item(at: $0.indexPath) }) == [0, 1, 2])
      view.beginDrag()
      view.drag(by: 40)
      view.endDrag(velocity: 4)
      view.tick(by: 1_000)
      view.layoutIfNeeded()
      #expect(view.contentOffset == 0)
      try view.scrollToItem(IndexPath(item: 0, section: 3), at: .bottom)
      view.layoutIfNeeded()
      #expect(view.visibleCells.count == 3)
    }
  }
}
