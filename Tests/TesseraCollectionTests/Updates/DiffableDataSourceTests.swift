import TesseraUtilities
import Testing

@testable import TesseraCollection

private typealias Snapshot = CollectionSnapshot<String, Note>
private typealias DataSource = CollectionDiffableDataSource<String, Note>

/// What the providers were asked, in order.
@MainActor
private final class ProviderLog {
  var cells: [Int] = []
  var headers: [String] = []
}

/// A list (rows 2 high, section headers 1 high, 3 for a section named "tall") fed by a
/// diffable data source that logs its providers' calls.
@MainActor
private func makeList(height: Int = 40) -> (CollectionView, DataSource, ProviderLog) {
  let view = CollectionView(layout: ListLayout(estimatedItemHeight: 2), width: 20, height: height)
  let log = ProviderLog()
  let dataSource = DataSource(
    collectionView: view,
    supplementaryViewProvider: { collectionView, kind, indexPath, section in
      let header: NoteHeader = collectionView.dequeueReusableSupplementaryView(
        ofKind: kind, for: indexPath)
      header.title = section
      log.headers.append(section ?? "-")
      return header
    },
    supplementaryHeightProvider: { kind, section in
      kind == .sectionHeader ? (section == "tall" ? 3 : 1) : 0
    }
  ) { collectionView, indexPath, note in
    log.cells.append(note.id)
    let cell: NoteCell = collectionView.dequeueReusableCell(for: indexPath)
    cell.note = note
    return cell
  }
  return (view, dataSource, log)
}

/// Sections "a" [0..<5] and "b" [5..<8].
private func twoSections() throws -> Snapshot {
  var snapshot = Snapshot()
  try snapshot.appendSections(["a", "b"])
  try snapshot.appendItems(notes(0..<5), toSection: "a")
  try snapshot.appendItems(notes(5..<8), toSection: "b")
  return snapshot
}

/// The cell objects on screen by item identifier.
@MainActor
private func cellsByItem(_ view: CollectionView) -> [Int: ObjectIdentifier] {
  var cells: [Int: ObjectIdentifier] = [:]
  for visible in view.visibleCells {
    if let note = (visible.cell as? NoteCell)?.note {
      cells[note.id] = ObjectIdentifier(visible.cell)
    }
  }
  return cells
}

/// What is on screen is exactly the snapshot: every item whose frame meets the visible band
/// has a cell showing that item at its index path, headers show their section's identifier,
/// and the collection view's counts are the snapshot's.
@MainActor
private func expectScreenShows(
  _ snapshot: Snapshot, in view: CollectionView,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  var problems: [String] = []
  if view.numberOfSections != snapshot.numberOfSections { problems.append("section count") }
  var expected: [IndexPath] = []
  for (section, id) in snapshot.sectionIdentifiers.enumerated() {
    let count = (try? snapshot.numberOfItems(inSection: id)) ?? -1
    if view.numberOfItems(inSection: section) != count { problems.append("count of \(id)") }
    for item in 0..<max(0, count) {
      let path = IndexPath(item: item, section: section)
      guard let frame = view.frameForItem(at: path) else {
        problems.append("no frame at \(path)")
        continue
      }
      if frame.height > 0 && frame.y < view.visibleBand.upperBound
        && frame.maxY > view.visibleBand.lowerBound
      {
        expected.append(path)
      }
    }
  }
  let visible = view.visibleCells
  if visible.map(\.indexPath) != expected {
    problems.append("visible \(visible.map(\.indexPath)), expected \(expected)")
  }
  for cell in visible {
    let shown = (cell.cell as? NoteCell)?.note
    if shown != snapshot.item(at: cell.indexPath) {
      problems.append(
        "\(cell.indexPath) shows \(String(describing: shown)), snapshot has "
          + String(describing: snapshot.item(at: cell.indexPath)))
    }
  }
  for header in view.visibleSupplementaryViews where header.kind == .sectionHeader {
    let title = (header.view as? NoteHeader)?.title
    if title != snapshot.sectionIdentifiers[header.section] {
      problems.append("header \(header.section) shows \(String(describing: title))")
    }
  }
  #expect(problems.isEmpty, "\(problems.prefix(5))", sourceLocation: sourceLocation)
}

@MainActor
@Suite(.timeLimit(.minutes(1))) struct DiffableDataSourceTests {
  @Test func theFirstApplyReloadsAndLaterOnesReportInsertsDeletesAndMoves() throws {
    let (view, dataSource, _) = makeList()
    let first = try twoSections()
    #expect(view.dataSource === dataSource)
    #expect(try dataSource.apply(first).reloadedEverything)
    view.layoutIfNeeded()
    expectScreenShows(first, in: view)

    var next = dataSource.snapshot()
    #expect(next == first)
    try next.deleteItems([1])
    try next.insertItems([Note(id: 20)], afterItem: 3)
    try next.moveItem(7, beforeItem: 5)
    // "a" [0, 2, 3, 20, 4], "b" [7, 5, 6]
    let update = try dataSource.apply(next)
    #expect(!update.reloadedEverything)
    #expect(update.deleted == [IndexPath(item: 1, section: 0)])
    #expect(update.inserted == [IndexPath(item: 3, section: 0)])
    #expect(
      update.moved.contains {
        $0 == .init(from: IndexPath(item: 2, section: 1), to: IndexPath(item: 0, section: 1))
      })
    for move in update.moved {
      #expect(first.item(at: move.from)?.id == next.item(at: move.to)?.id)
    }
    #expect(update.reloaded.isEmpty)
    #expect(dataSource.snapshot() == next)
    view.layoutIfNeeded()
    expectScreenShows(next, in: view)
  }

  @Test func cellsOfItemsThatStayKeepTheirCellObject() throws {
    let (view, dataSource, log) = makeList()
    try dataSource.apply(try twoSections())
    view.layoutIfNeeded()
    let before = cellsByItem(view)
    #expect(before.count == 8)
    log.cells.removeAll()
    var next = dataSource.snapshot()
    try next.insertItems([Note(id: 30)], beforeItem: 0)
    try next.deleteItems([6])
    try next.moveItem(2, afterItem: 5)
    try next.moveItem(7, beforeItem: 0)
    try dataSource.apply(next)
    view.layoutIfNeeded()
    expectScreenShows(next, in: view)
    // Only the new item was configured; every other item kept its very cell.
    #expect(log.cells == [30])
    let after = cellsByItem(view)
    for id in [0, 1, 2, 3, 4, 5, 7] {
      #expect(after[id] != nil && after[id] == before[id], "item \(id)")
    }
  }

  @Test func anItemWhoseContentChangedIsConfiguredAgain() throws {
    let (view, dataSource, log) = makeList()
    try dataSource.apply(try twoSections())
    view.layoutIfNeeded()
    let before = cellsByItem(view)
    log.cells.removeAll()

    // The same snapshot again: nothing to do.
    let same = try dataSource.apply(dataSource.snapshot())
    view.layoutIfNeeded()
    #expect(same == BatchUpdate())
    #expect(log.cells.isEmpty)

    var next = dataSource.snapshot()
    try next.updateItems([Note(id: 2, text: "edited"), Note(id: 6, text: "also")])
    let update = try dataSource.apply(next)
    #expect(update.reloaded == [IndexPath(item: 2, section: 0), IndexPath(item: 1, section: 1)])
    #expect(update.inserted.isEmpty && update.deleted.isEmpty && update.moved.isEmpty)
    view.layoutIfNeeded()
    #expect(log.cells.sorted() == [2, 6])
    let edited = view.cellForItem(at: IndexPath(item: 2, section: 0)) as? NoteCell
    #expect(edited?.note?.text == "edited")
    #expect(
      (view.cellForItem(at: IndexPath(item: 1, section: 1)) as? NoteCell)?.note?.text == "also")
    expectScreenShows(next, in: view)
    let after = cellsByItem(view)
    for id in [0, 1, 3, 4, 5, 7] { #expect(after[id] == before[id], "item \(id)") }
  }

  @Test func aRenamedSectionsHeaderIsConfiguredAgainWithItsOwnHeight() throws {
    let (view, dataSource, log) = makeList()
    let first = try twoSections()
    try dataSource.apply(first)
    view.layoutIfNeeded()
    #expect(
      view.visibleSupplementaryViews.compactMap { ($0.view as? NoteHeader)?.title } == ["a", "b"])
    let cells = cellsByItem(view)
    log.headers.removeAll()

    // The same items under another identifier for the second section.
    var renamed = Snapshot()
    try renamed.appendSections(["a", "tall"])
    try renamed.appendItems(try first.items(inSection: "a"), toSection: "a")
    try renamed.appendItems(try first.items(inSection: "b"), toSection: "tall")
    let update = try dataSource.apply(renamed)
    #expect(update == BatchUpdate())
    view.layoutIfNeeded()
    #expect(log.headers.contains("tall"))
    let headers = view.visibleSupplementaryViews.filter { $0.kind == .sectionHeader }
    #expect(headers.compactMap { ($0.view as? NoteHeader)?.title } == ["a", "tall"])
    #expect(headers.map(\.frame.height) == [1, 3])
    #expect(dataSource.sectionIdentifier(for: 1) == "tall")
    #expect(cellsByItem(view) == cells)
    expectScreenShows(renamed, in: view)
  }

  @Test func lookUpsAnswerFromTheCurrentSnapshot() throws {
    let (_, dataSource, _) = makeList()
    #expect(dataSource.snapshot() == Snapshot())
    #expect(dataSource.itemIdentifier(for: IndexPath(item: 0, section: 0)) == nil)
    try dataSource.apply(try twoSections())
    #expect(dataSource.itemIdentifier(for: IndexPath(item: 1, section: 1)) == 6)
    #expect(dataSource.item(at: IndexPath(item: 1, section: 1)) == Note(id: 6))
    #expect(dataSource.itemIdentifier(for: IndexPath(item: 3, section: 1)) == nil)
    #expect(dataSource.indexPath(for: 4) == IndexPath(item: 4, section: 0))
    #expect(dataSource.indexPath(for: 40) == nil)
    #expect(dataSource.sectionIdentifier(for: 0) == "a")
    #expect(dataSource.sectionIdentifier(for: 2) == nil)
    #expect(dataSource.sectionIdentifier(for: -1) == nil)
  }

  @Test func aRefusedApplyKeepsTheCurrentSnapshot() throws {
    let (view, dataSource, _) = makeList()
    let first = try twoSections()
    try dataSource.apply(first)
    view.layoutIfNeeded()
    // Another object became the data source: its counts disagree with the snapshot's.
    let other = TestDataSource(sections: [[0]])
    view.dataSource = other
    var next = first
    try next.appendSections(["c"])
    #expect(throws: CollectionError.sectionCountMismatch(identifiers: 3, dataSource: 1)) {
      try dataSource.apply(next)
    }
    #expect(dataSource.snapshot() == first)
    view.dataSource = dataSource
    try dataSource.apply(next)
    #expect(dataSource.snapshot() == next)
  }

  @Test func theCollectionViewHoldsItsDataSourceWeakly() {
    let view = CollectionView(layout: ListLayout(), width: 10, height: 10)
    weak var released: DataSource?
    do {
      let dataSource = DataSource(collectionView: view) { collectionView, indexPath, _ in
        let cell: NoteCell = collectionView.dequeueReusableCell(for: indexPath)
        return cell
      }
      released = dataSource
      #expect(view.dataSource === dataSource)
    }
    #expect(released == nil)
    #expect(view.dataSource == nil)
  }

  @Test func randomSnapshotsAlwaysLeaveTheScreenShowingTheSnapshot() throws {
    var random = SplitMix64(seed: 7)
    let (view, dataSource, _) = makeList(height: 15)
    var snapshot = Snapshot()
    try snapshot.appendSections(["s0", "s1", "s2"])
    var nextItem = 0
    for section in snapshot.sectionIdentifiers {
      try snapshot.appendItems(notes(nextItem..<(nextItem + 10)), toSection: section)
      nextItem += 10
    }
    var nextSection = 3
    try dataSource.apply(snapshot)
    view.layoutIfNeeded()
    expectScreenShows(snapshot, in: view)
    var totals = (inserted: 0, deleted: 0, moved: 0, reloaded: 0, kept: 0)
    for _ in 0..<300 {
      var next = dataSource.snapshot()
      for _ in 0..<Int.random(in: 1...4, using: &random) {
        let all = next.itemIdentifiers
        switch Int.random(in: 0..<9, using: &random) {
        case 0, 1:
          let new = notes(nextItem..<(nextItem + Int.random(in: 1...3, using: &random)))
          nextItem += new.count
          if all.isEmpty || Int.random(in: 0..<4, using: &random) == 0 {
            if next.numberOfSections == 0 { try next.appendSections(["s\(nextSection)"]) }
            nextSection += 1
            try next.appendItems(new, toSection: random.pick(next.sectionIdentifiers))
          } else if Bool.random(using: &random) {
            try next.insertItems(new, beforeItem: random.pick(all))
          } else {
            try next.insertItems(new, afterItem: random.pick(all))
          }
        case 2 where !all.isEmpty:
          try next.deleteItems(
            (0..<Int.random(in: 1...3, using: &random)).map { _ in random.pick(all) })
        case 3 where all.count > 1, 4 where all.count > 1:
          let id = random.pick(all)
          var anchor = random.pick(all)
          while anchor == id { anchor = random.pick(all) }
          if Bool.random(using: &random) {
            try next.moveItem(id, beforeItem: anchor)
          } else {
            try next.moveItem(id, afterItem: anchor)
          }
        case 5 where !all.isEmpty, 6 where !all.isEmpty:
          let id = random.pick(all)
          try next.updateItems([Note(id: id, text: "edited \(nextItem)")])
          nextItem += 1
        case 7:
          if next.numberOfSections > 1 && Bool.random(using: &random) {
            try next.deleteSections([random.pick(next.sectionIdentifiers)])
          } else {
            try next.appendSections(["s\(nextSection)"])
            nextSection += 1
          }
        default:
          // Rename a section: the same items under a new identifier.
          guard next.numberOfSections > 0 else { continue }
          let renamed = Int.random(in: 0..<next.numberOfSections, using: &random)
          var rebuilt = Snapshot()
          for (index, id) in next.sectionIdentifiers.enumerated() {
            let newID = index == renamed ? "s\(nextSection)" : id
            try rebuilt.appendSections([newID])
            try rebuilt.appendItems(try next.items(inSection: id), toSection: newID)
          }
          nextSection += 1
          next = rebuilt
        }
      }
      let before = cellsByItem(view)
      let update = try dataSource.apply(next)
      view.layoutIfNeeded()
      expectScreenShows(next, in: view)
      // Items on screen before and after whose content did not change kept their cell (the
      // changed ones were configured again: `expectScreenShows` saw their new content).
      let reloaded = Set(update.reloaded.compactMap { next.item(at: $0)?.id })
      for (id, cell) in cellsByItem(view) where !reloaded.contains(id) {
        guard let old = before[id] else { continue }
        #expect(old == cell, "item \(id)")
        totals.kept += 1
      }
      totals.inserted += update.inserted.count
      totals.deleted += update.deleted.count
      totals.moved += update.moved.count
      totals.reloaded += update.reloaded.count
      view.scroll(by: Double(Int.random(in: -12...12, using: &random)), animated: false)
      view.layoutIfNeeded()
      expectScreenShows(next, in: view)
    }
    // The sequence exercised every kind of change.
    #expect(totals.inserted > 100 && totals.deleted > 100 && totals.moved > 50)
    #expect(totals.reloaded > 50 && totals.kept > 300)
  }
}
