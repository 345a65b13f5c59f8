import Testing

@testable import TesseraCollection

@MainActor
@Suite(.timeLimit(.minutes(1))) struct HitTestingTests {
  /// Every point of the viewport hits the cell drawn there, or nothing — against a scan of
  /// `visibleCells` — at offsets that cut rows in half.
  @Test(arguments: [0, 3, 17, 40, 95])
  func everyViewportPointHitsTheCellDrawnThere(offset: Int) {
    let source = TestDataSource(sections: [Array(0..<30), Array(30..<45)])
    source.headerHeight = 2
    let view = makeCollectionView(
      source, layout: GridLayout(columns: .fixed(4), spacing: 1), width: 41, height: 30)
    view.setContentOffset(Double(offset))
    view.layoutIfNeeded()
    var hits = 0
    for y in -1...view.viewportHeight {
      for x in -1...view.viewportWidth {
        let inViewport = x >= 0 && x < view.viewportWidth && y >= 0 && y < view.viewportHeight
        let drawn =
          inViewport ? view.visibleCells.first { $0.frame.contains(x: x, y: y) }?.indexPath : nil
        let hit = view.indexPathForItem(atX: x, y: y, in: .viewport)
        #expect(hit == drawn, "(\(x), \(y)) at offset \(offset)")
        if hit != nil { hits += 1 }
      }
    }
    #expect(hits > 0)
  }

  /// In content coordinates, a waterfall's items of many shapes are found where
  /// `frameForItem` says they are.
  @Test func aWaterfallIsHitWhereItsFramesAre() {
    let (view, source) = makeSeededWaterfall(
      count: 60, columns: 3, seed: 7, shapes: 0.4...2.5, width: 31, height: 20)
    defer { withExtendedLifetime(source) {} }
    for item in 0..<60 {
      let path = IndexPath(item: item, section: 0)
      let frame = try! #require(view.frameForItem(at: path))
      for (x, y) in [
        (frame.x, frame.y), (frame.maxX - 1, frame.maxY - 1), (frame.x + 2, frame.y + 1),
      ] {
        #expect(view.indexPathForItem(atX: x, y: y) == path)
      }
      #expect(view.indexPathForItem(atX: frame.x - 1, y: frame.y) != path)
      #expect(view.indexPathForItem(atX: frame.x, y: frame.maxY) != path)
    }
    #expect(view.indexPathForItem(atX: 0, y: 0) == nil)  // the spacing
    #expect(view.indexPathForItem(atX: 5, y: -1) == nil)
    #expect(view.indexPathForItem(atX: 5, y: view.contentHeight) == nil)
  }

  @Test func aPinnedHeaderHidesTheItemsUnderIt() throws {
    let source = TestDataSource(sections: [Array(0..<30), Array(30..<40)])
    source.headerHeight = 2
    let view = makeCollectionView(
      source, layout: GridLayout(columns: .fixed(3), spacing: 1), width: 31, height: 30)
    view.pinsSectionHeaders = true
    view.setContentOffset(25)
    view.layoutIfNeeded()
    let header = try #require(view.visibleSupplementaryViews.first { $0.kind == .sectionHeader })
    #expect(header.frame.y == 0)
    #expect(view.indexPathForItem(atX: 5, y: 0, in: .viewport) == nil)
    #expect(view.indexPathForItem(atX: 5, y: 1, in: .viewport) == nil)
    // Under the header, the item is still there in content coordinates.
    #expect(view.indexPathForItem(atX: 5, y: 25) != nil)
  }
}
