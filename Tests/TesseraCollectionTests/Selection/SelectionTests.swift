import Testing

@testable import TesseraCollection

@MainActor
@Suite(.timeLimit(.minutes(1))) struct SelectionTests {
  private func grid(
    _ sections: [[Int]], mode: SelectionMode = .single
  ) -> (
    CollectionView, TestDataSource
  ) {
    let source = TestDataSource(sections: sections)
    let view = makeCollectionView(
      source, layout: GridLayout(columns: .fixed(3), spacing: 1), width: 31, height: 40)
    view.selectionMode = mode
    return (view, source)
  }

  private func path(_ item: Int, _ section: Int = 0) -> IndexPath {
    IndexPath(item: item, section: section)
  }

  @Test func singleSelectionReplacesAndFocuses() throws {
    let (view, _) = grid([Array(0..<10)])
    #expect(view.focusedIndexPath == nil)
    try view.selectItem(at: path(2))
    try view.selectItem(at: path(5))
    #expect(view.indexPathsForSelectedItems == [path(5)])
    #expect(view.isItemSelected(at: path(5)))
    #expect(!view.isItemSelected(at: path(2)))
    #expect(view.focusedIndexPath == path(5))
    try view.deselectItem(at: path(5))
    #expect(view.indexPathsForSelectedItems.isEmpty)
    #expect(view.focusedIndexPath == path(5))
  }

  @Test func multipleSelectionTogglesAndExtendsFromTheAnchor() throws {
    let (view, _) = grid([[0, 1, 2, 3], [4, 5, 6, 7, 8]], mode: .multiple)
    try view.toggleSelection(at: path(1))
    try view.toggleSelection(at: path(1, 1))
    #expect(view.indexPathsForSelectedItems == [path(1), path(1, 1)])
    // Shift-click from the anchor (item 5) back across the section boundary to item 2.
    try view.extendSelection(to: path(2))
    #expect(view.indexPathsForSelectedItems == [path(1), path(2), path(3), path(0, 1), path(1, 1)])
    #expect(view.focusedIndexPath == path(2))
    try view.toggleSelection(at: path(3))
    #expect(!view.isItemSelected(at: path(3)))
    view.selectAllItems()
    #expect(view.indexPathsForSelectedItems.count == 9)
    view.selectionMode = .single
    #expect(view.indexPathsForSelectedItems.count <= 1)
    view.selectionMode = .none
    try view.selectItem(at: path(0))
    #expect(view.indexPathsForSelectedItems.isEmpty)
    #expect(view.focusedIndexPath == path(0))
  }

  @Test func anIndexPathNamingNoItemIsRefusedAndChangesNothing() throws {
    let (view, _) = grid([[0, 1, 2]], mode: .multiple)
    try view.selectItem(at: path(1))
    for bad in [path(3), path(-1), path(0, 1), path(0, -1)] {
      #expect(throws: CollectionError.invalidIndexPath(bad)) { try view.selectItem(at: bad) }
      #expect(throws: CollectionError.invalidIndexPath(bad)) { try view.extendSelection(to: bad) }
      #expect(throws: CollectionError.invalidIndexPath(bad)) { try view.focusItem(at: bad) }
    }
    #expect(view.indexPathsForSelectedItems == [path(1)])
    #expect(view.focusedIndexPath == path(1))
  }

  @Test func selectionAndFocusFollowTheirItemsThroughBatchUpdates() throws {
    let (view, source) = grid([[10, 11, 12, 13, 14, 15]], mode: .multiple)
    try view.reloadData(identifiers: source.sections)
    view.layoutIfNeeded()
    try view.selectItem(at: path(1))  // 11
    try view.selectItem(at: path(4))  // 14
    try view.focusItem(at: path(3))  // 13
    // 13 moves to the front, 11 is deleted, 20 is inserted.
    source.sections = [[13, 10, 20, 12, 14, 15]]
    try view.performBatchUpdates(identifiers: source.sections)
    #expect(view.indexPathsForSelectedItems == [path(4)])  // 14 only
    #expect(view.focusedIndexPath == path(0))  // 13
    // The focused item is deleted: the focus goes to the next survivor (10).
    source.sections = [[10, 20, 12, 14, 15]]
    try view.performBatchUpdates(identifiers: source.sections)
    #expect(view.focusedIndexPath == path(0))
    try view.focusItem(at: path(4))  // 15, the last
    source.sections = [[10, 20]]
    try view.performBatchUpdates(identifiers: source.sections)
    #expect(view.focusedIndexPath == path(1))  // nothing after it: the survivor before
    #expect(view.indexPathsForSelectedItems.isEmpty)  // 14 is gone
    source.sections = [[]]
    try view.performBatchUpdates(identifiers: source.sections)
    #expect(view.focusedIndexPath == nil)
  }

  @Test func aReloadWithoutIdentitiesClearsTheSelectionAndClampsTheFocus() throws {
    let (view, source) = grid([Array(0..<10)])
    try view.selectItem(at: path(8))
    source.sections = [Array(0..<4)]
    view.reloadData()
    view.layoutIfNeeded()
    #expect(view.indexPathsForSelectedItems.isEmpty)
    #expect(view.focusedIndexPath == path(3))
  }

  @Test func selectionFollowsFocusWhenAsked() throws {
    let (view, _) = grid([Array(0..<10)])
    view.moveFocus(.right)
    #expect(view.focusedIndexPath == path(0))  // no focus yet: the first item on screen
    #expect(view.indexPathsForSelectedItems.isEmpty)
    view.selectionFollowsFocus = true
    view.moveFocus(.down)
    #expect(view.focusedIndexPath == path(3))
    #expect(view.indexPathsForSelectedItems == [path(3)])
  }

  @Test func shiftMovesExtendTheSelectionInMultipleMode() throws {
    let (view, _) = grid([Array(0..<10)], mode: .multiple)
    try view.selectItem(at: path(1))
    view.moveFocus(.down, extendingSelection: true)
    #expect(view.indexPathsForSelectedItems == (1...4).map { path($0) })
    view.moveFocus(.right, extendingSelection: true)
    #expect(view.indexPathsForSelectedItems == (1...5).map { path($0) })
  }
}
