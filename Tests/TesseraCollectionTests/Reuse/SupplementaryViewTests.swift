import Testing

@testable import TesseraCollection

@MainActor
@Suite struct SupplementaryViewTests {
  private func sectionedSource() -> TestDataSource {
    let source = TestDataSource(sections: [[0, 1, 2], [3, 4], [5, 6, 7, 8]])
    for id in 0..<9 { source.heights[id] = 3 }
    source.headerHeight = 2
    source.footerHeight = 1
    source.collectionHeaderHeight = 4
    source.collectionFooterHeight = 2
    return source
  }

  @Test func aListStacksCollectionAndSectionHeadersAndFootersAroundTheItems() {
    let source = sectionedSource()
    let view = makeCollectionView(
      source, layout: ListLayout(estimatedItemHeight: 3), width: 12, height: 100)
    let supplementary = view.visibleSupplementaryViews
    #expect(supplementary.map(\.kind).first == .collectionHeader)
    #expect(supplementary.map(\.kind).last == .collectionFooter)
    #expect(supplementary.filter { $0.kind == .sectionHeader }.map(\.section) == [0, 1, 2])
    #expect(supplementary.filter { $0.kind == .sectionFooter }.map(\.section) == [0, 1, 2])
    for view in supplementary {
      let header = view.view as? HeaderView
      #expect(header?.kind == view.kind)
      #expect(header?.section == view.section)
    }
    // Collection header 4, then section 0: header 2, three items of 3, footer 1.
    #expect(supplementary[0].frame == Rect(x: 0, y: 0, width: 12, height: 4))
    #expect(supplementary[1].frame == Rect(x: 0, y: 4, width: 12, height: 2))
    #expect(view.visibleCells.first?.frame == Rect(x: 0, y: 6, width: 12, height: 3))
    #expect(supplementary[2].frame == Rect(x: 0, y: 15, width: 12, height: 1))
    #expect(view.contentHeight == 4 + 3 * 3 + 9 * 3 + 2)
  }

  @Test func headersAreRecycledLikeCellsWithTheirOwnPool() {
    let source = sectionedSource()
    source.sections = (0..<50).map { section in (0..<4).map { section * 4 + $0 } }
    for id in 0..<200 { source.heights[id] = 3 }
    let view = makeCollectionView(
      source, layout: ListLayout(estimatedItemHeight: 3), width: 12, height: 30)
    for _ in 0..<40 {
      view.scroll(by: 17, animated: false)
      view.layoutIfNeeded()
    }
    // A 30-unit screen shows at most 3 sections' headers and footers plus the end views.
    #expect(view.createdCount(of: HeaderView.self) <= 8)
    #expect(view.createdCount(of: TestCell.self) <= 11)
  }

  @Test func aGridPutsHeadersFullWidthAboveEachSectionsRows() throws {
    let source = sectionedSource()
    let view = makeCollectionView(
      source, layout: GridLayout(columns: .fixed(2), spacing: 1, heightPerWidth: 0.5), width: 21,
      height: 200)
    let headers = view.visibleSupplementaryViews.filter { $0.kind == .sectionHeader }
    #expect(headers.count == 3)
    #expect(headers.allSatisfy { $0.frame.width == 21 && $0.frame.x == 0 })
    let firstItemOfSection1 = try #require(
      view.visibleCells.first { $0.indexPath == IndexPath(item: 0, section: 1) })
    #expect(firstItemOfSection1.frame.y == headers[1].frame.maxY + 1)
  }
}
