import Testing

@testable import TesseraCollection

@MainActor
@Suite struct BatchUpdateTests {
  private func list(count: Int = 100) throws -> (TestDataSource, CollectionView) {
    let source = TestDataSource(count: count)
    for id in 0..<count { source.heights[id] = 4 }
    let view = CollectionView(layout: ListLayout(estimatedItemHeight: 4), width: 20, height: 40)
    view.dataSource = source
    view.delegate = source
    try view.reloadData(identifiers: source.sections)
    view.layoutIfNeeded()
    return (source, view)
  }

  @Test func visibleCellsKeepTheirIdentityThroughInsertsDeletesAndMoves() throws {
    let (source, view) = try list()
    view.scroll(by: 40, animated: false)
    view.layoutIfNeeded()
    let before = Dictionary(
      uniqueKeysWithValues: view.visibleCells.map {
        (source.item(at: $0.indexPath), ObjectIdentifier($0.cell))
      })
    let top = view.visibleCells.first!
    let topID = source.item(at: top.indexPath)
    // Insert two above the screen, delete one on screen, move one.
    var ids = source.sections[0]
    ids.insert(500, at: 3)
    ids.insert(501, at: 0)
    ids.removeAll { $0 == 12 }
    ids.removeAll { $0 == 15 }
    ids.insert(15, at: 11)
    source.sections = [ids]
    let update = try view.performBatchUpdates(identifiers: source.sections)
    #expect(update.inserted == [IndexPath(item: 0, section: 0), IndexPath(item: 4, section: 0)])
    #expect(update.deleted == [IndexPath(item: 12, section: 0)])
    #expect(update.moved.contains { $0.from == IndexPath(item: 15, section: 0) })
    view.layoutIfNeeded()
    // The top item stayed at the top; every kept item kept its cell.
    #expect(view.visibleCells.first.map { source.item(at: $0.indexPath) } == topID)
    #expect(view.visibleCells.first?.frame.y == top.frame.y)
    for cell in view.visibleCells {
      let id = source.item(at: cell.indexPath)
      #expect((cell.cell as? TestCell)?.item == id)
      #expect(view.indexPath(for: cell.cell) == cell.indexPath)
      if let old = before[id] { #expect(old == ObjectIdentifier(cell.cell)) }
    }
    #expect(source.events.contains("didEndDisplaying [0, 12]"))
  }

  @Test func reloadedItemsGetAFreshlyConfiguredCell() throws {
    let (source, view) = try list()
    let cell = try #require(view.cellForItem(at: IndexPath(item: 2, section: 0)) as? TestCell)
    let prepared = cell.prepareCount
    source.clearLog()
    let update = try view.performBatchUpdates(identifiers: source.sections, reloading: [2])
    #expect(update.reloaded == [IndexPath(item: 2, section: 0)])
    view.layoutIfNeeded()
    #expect(source.log == ["reuse#2 [0, 2]"])
    #expect(cell.prepareCount == prepared + 1)
  }

  @Test func duplicatesAndMismatchedCountsAreRefusedAndChangeNothing() throws {
    let (source, view) = try list(count: 10)
    source.sections = [[0, 1, 2, 3, 2, 5, 6, 7, 8, 9]]
    #expect(throws: CollectionError.duplicateIdentifier("2", at: IndexPath(item: 4, section: 0))) {
      try view.performBatchUpdates(identifiers: source.sections)
    }
    #expect(throws: CollectionError.duplicateIdentifier("1", at: IndexPath(item: 0, section: 1))) {
      try view.reloadData(identifiers: [[1, 2], [1]])
    }
    source.sections = [Array(0..<10)]
    #expect(throws: CollectionError.countMismatch(section: 0, identifiers: 11, dataSource: 10)) {
      try view.performBatchUpdates(identifiers: [Array(0..<11)])
    }
    #expect(throws: CollectionError.sectionCountMismatch(identifiers: 2, dataSource: 1)) {
      try view.performBatchUpdates(identifiers: [Array(0..<10), []])
    }
    #expect(view.numberOfItems(inSection: 0) == 10)
    #expect(view.indexPath(forItemIdentifier: 7) == IndexPath(item: 7, section: 0))
  }

  @Test func itemsMoveAcrossSectionsAndMeasuredHeightsFollowThem() throws {
    let source = TestDataSource(sections: [[0, 1, 2], [3, 4, 5]])
    source.heights = [0: 3, 1: 7, 2: 2, 3: 5, 4: 1, 5: 6]
    source.headerHeight = 1
    let view = CollectionView(layout: ListLayout(estimatedItemHeight: 1), width: 10, height: 50)
    view.dataSource = source
    try view.reloadData(identifiers: source.sections)
    view.layoutIfNeeded()
    source.sections = [[0, 4], [3, 1, 2, 5]]
    try view.performBatchUpdates(identifiers: source.sections)
    // Before any new measurement, item 1 (7 high) is at [1, 1] with its height.
    #expect(view.frameForItem(at: IndexPath(item: 1, section: 1))?.height == 7)
    #expect(view.frameForItem(at: IndexPath(item: 1, section: 0))?.height == 1)
    view.layoutIfNeeded()
    #expect(view.visibleCells.map { source.item(at: $0.indexPath) } == [0, 4, 3, 1, 2, 5])
    #expect(view.indexPath(forItemIdentifier: 1) == IndexPath(item: 1, section: 1))
  }

  @Test func withoutEarlierIdentifiersAnUpdateIsAReload() throws {
    let source = TestDataSource(count: 5)
    let view = makeCollectionView(source, layout: ListLayout(), width: 10, height: 10)
    let update = try view.performBatchUpdates(identifiers: source.sections)
    #expect(update.reloadedEverything)
  }
}

@MainActor
@Suite struct BatchUpdateMeasurementTests {
  @Test func aPendingRemeasureFollowsItsItemThroughAnUpdate() throws {
    let source = TestDataSource(count: 20)
    for id in 0..<20 { source.heights[id] = 2 }
    let view = CollectionView(layout: ListLayout(estimatedItemHeight: 2), width: 10, height: 20)
    view.dataSource = source
    try view.reloadData(identifiers: source.sections)
    view.layoutIfNeeded()
    (view.cellForItem(at: IndexPath(item: 3, section: 0)) as? TestCell)?.height = 6
    try view.invalidateSize(ofItemAt: IndexPath(item: 3, section: 0))
    source.sections = [[99] + Array(0..<20)]
    source.heights[99] = 2
    try view.performBatchUpdates(identifiers: source.sections)
    view.layoutIfNeeded()
    #expect(view.frameForItem(at: IndexPath(item: 4, section: 0))?.height == 6)
  }
}
