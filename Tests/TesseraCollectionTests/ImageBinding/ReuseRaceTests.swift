import Testing

@testable import TesseraCollection

/// Seeds 000 and 003's races with completions delivered by hand.
@MainActor
@Suite struct ReuseRaceTests {
  /// 100 rows of 10 in a 40-unit viewport (4 rows), each binding its image on display.
  private func setUp() throws -> (TestDataSource, CollectionView, ControlledLoader) {
    let source = TestDataSource(count: 100)
    for id in 0..<100 { source.heights[id] = 10 }
    let loader = ControlledLoader()
    source.loader = loader
    let view = CollectionView(layout: ListLayout(estimatedItemHeight: 10), width: 20, height: 40)
    view.dataSource = source
    view.delegate = source
    try view.reloadData(identifiers: source.sections)
    view.layoutIfNeeded()
    #expect(loader.pending.map(\.request) == [0, 1, 2, 3])
    return (source, view, loader)
  }

  private func cell(_ view: CollectionView, item: Int) throws -> TestCell {
    try #require(view.cellForItem(at: IndexPath(item: item, section: 0)) as? TestCell)
  }

  /// A cell configured again for the same item and request (its item's other fields changed:
  /// a photo's date arrived) keeps the load under way instead of cancelling a decode half
  /// done and starting it again; another request for it does replace the load.
  @Test func bindingTheSameItemAndRequestAgainKeepsTheLoadUnderWay() throws {
    let loader = ControlledLoader()
    let slot = ImageSlot<TestImage>()
    var reported: [String] = []
    slot.bind(item: 7, request: 7, loader: loader) { _ in reported.append("first") }
    slot.bind(item: 7, request: 7, loader: loader) { _ in reported.append("second") }
    #expect(loader.startedCount == 1)
    #expect(loader.cancelledCount == 0)
    loader.complete(request: 7)
    #expect(slot.image == TestImage(item: 7))
    #expect(reported == ["second"])
    #expect(slot.droppedCompletions == 0)
    // Another request for the same item replaces the load.
    slot.prepareForReuse()
    slot.bind(item: 7, request: 70, loader: loader)
    slot.bind(item: 7, request: 71, loader: loader)
    #expect(loader.startedCount == 3)
    #expect(loader.cancelledCount == 1)
  }

  @Test func completionAfterTheCellScrolledOffIsDroppedAndTheCacheServesItsReturn() throws {
    let (source, view, loader) = try setUp()
    let rowThree = try cell(view, item: 3)
    // The screen shrinks: rows 2 and 3 go to the pool, nothing takes their cells.
    view.setViewport(width: 20, height: 20)
    view.layoutIfNeeded()
    #expect(view.indexPath(for: rowThree) == nil)
    loader.complete(request: 3)
    #expect(rowThree.imageSlot.image == nil)
    #expect(rowThree.imageSlot.droppedCompletions == 1)
    // Back on screen: the image is in memory now, so it shows in the same frame.
    let historyBefore = rowThree.imageHistory.count
    view.setViewport(width: 20, height: 40)
    view.layoutIfNeeded()
    let again = try cell(view, item: 3)
    #expect(again === rowThree)
    #expect(again.imageSlot.image == TestImage(item: 3))
    // Reset for reuse (item nil), then straight to the image: never the placeholder for 3.
    let shown = again.imageHistory[historyBefore...]
    #expect(!shown.contains { $0.item == 3 && $0.content.isPlaceholder })
    expectEveryVisibleCellShowsItsOwnImage(view, source)
    expectNoFlash(in: again)
  }

  @Test func completionAfterTheCellWasReusedForAnotherItemIsDropped() throws {
    let (source, view, loader) = try setUp()
    let rowZero = try cell(view, item: 0)
    view.scroll(by: 10, animated: false)
    view.layoutIfNeeded()
    // Row 0's cell now shows row 4; row 0's download finishes late (seed 003's steps 8–10).
    #expect(view.indexPath(for: rowZero) == IndexPath(item: 4, section: 0))
    loader.complete(request: 0)
    #expect(rowZero.imageSlot.image == nil)
    expectEveryVisibleCellShowsItsOwnImage(view, source)
    loader.complete(request: 4)
    #expect(rowZero.imageSlot.image == TestImage(item: 4))
    expectNoFlash(in: rowZero)
  }

  @Test func completionAfterAnInsertAboveLandsInTheCellThatStillShowsTheItem() throws {
    let (source, view, loader) = try setUp()
    let itemOne = try cell(view, item: 1)
    source.sections = [[200, 201] + Array(0..<100)]
    try view.performBatchUpdates(identifiers: source.sections)
    view.layoutIfNeeded()
    // Item 1 is now at [0, 3]; seed 000's index-path check ([0, 1] captured) would drop its
    // image, or worse put it in whatever cell now shows [0, 1].
    #expect(view.indexPath(for: itemOne) == IndexPath(item: 3, section: 0))
    loader.complete(request: 1)
    #expect(itemOne.imageSlot.image == TestImage(item: 1))
    try view.scrollToItem(IndexPath(item: 0, section: 0), at: .top)
    view.layoutIfNeeded()
    expectEveryVisibleCellShowsItsOwnImage(view, source)
    loader.completeAll()
    expectEveryVisibleCellShowsItsOwnImage(view, source)
    for visible in view.visibleCells {
      let cell = visible.cell as! TestCell
      #expect(cell.imageSlot.image == TestImage(item: source.item(at: visible.indexPath)))
      expectNoFlash(in: cell)
    }
  }

  @Test func bindingCancelsThePreviousRequest() throws {
    let (source, view, loader) = try setUp()
    view.scroll(by: 10, animated: false)
    view.layoutIfNeeded()
    // Row 0's request was cancelled when it left (the data source is weakly held: keep it).
    withExtendedLifetime(source) {
      #expect(loader.pending.first { $0.request == 0 }?.cancelled == true)
      #expect(loader.pending.first { $0.request == 1 }?.cancelled == false)
    }
  }

  @Test func aFailedLoadLeavesThePlaceholder() throws {
    let (source, view, loader) = try setUp()
    loader.complete(at: 0, failing: true)
    #expect(try cell(view, item: 0).imageSlot.image == nil)
    expectEveryVisibleCellShowsItsOwnImage(view, source)
  }

  /// What a load's callback holds (a layout, a cell) goes when the load is cancelled or has
  /// delivered: a slot keeps nothing for a load that will not call it again.
  @Test func aCancelledOrFinishedLoadLetsGoOfItsCallback() {
    final class Witness: Sendable {}
    let loader = ControlledLoader()
    let slot = ImageSlot<TestImage>()
    weak var cancelledWitness: Witness?
    do {
      let witness = Witness()
      cancelledWitness = witness
      slot.bind(item: 1, request: 1, loader: loader) { _ in withExtendedLifetime(witness) {} }
    }
    #expect(cancelledWitness != nil)
    slot.cancel()
    #expect(cancelledWitness == nil)
    weak var deliveredWitness: Witness?
    var delivered = 0
    do {
      let witness = Witness()
      deliveredWitness = witness
      slot.bind(item: 2, request: 2, loader: loader) { _ in
        withExtendedLifetime(witness) { delivered += 1 }
      }
    }
    loader.complete(request: 2)
    #expect(delivered == 1)
    #expect(slot.image == TestImage(item: 2))
    #expect(deliveredWitness == nil)
  }

  @Test func theUncheckedSetterIsWhatTheNaiveStrategyUses() {
    let slot = ImageSlot<TestImage>()
    slot.setImageUnchecked(TestImage(item: 9))
    #expect(slot.image == TestImage(item: 9))
    slot.setImageUnchecked(nil)
    #expect(slot.image == nil)
  }
}

extension ImageSlot.Content {
  var isPlaceholder: Bool {
    if case .placeholder = self { return true }
    return false
  }
}
