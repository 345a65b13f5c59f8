import TesseraUtilities
import Testing

@testable import TesseraCollection

private typealias Snapshot = CollectionSnapshot<String, Note>

/// Sections "a" [0, 1, 2], "b" [3, 4], "c" [].
private func sample() throws -> Snapshot {
  var snapshot = Snapshot()
  try snapshot.appendSections(["a", "b", "c"])
  try snapshot.appendItems(notes(0..<3), toSection: "a")
  try snapshot.appendItems(notes(3..<5), toSection: "b")
  return snapshot
}

/// The snapshot's sections and their item identifiers, to compare with a model.
private func shape(_ snapshot: Snapshot) throws -> [String: [Int]] {
  var result: [String: [Int]] = [:]
  for section in snapshot.sectionIdentifiers {
    result[section] = try snapshot.itemIdentifiers(inSection: section)
  }
  return result
}

/// Every look-up agrees with the snapshot's contents: index paths, items, sections, counts.
private func expectConsistent(
  _ snapshot: Snapshot, sourceLocation: SourceLocation = #_sourceLocation
) throws {
  var problems: [String] = []
  var total = 0
  for (index, section) in snapshot.sectionIdentifiers.enumerated() {
    if snapshot.indexOfSection(section) != index { problems.append("section \(section)") }
    let items = try snapshot.items(inSection: section)
    if try snapshot.numberOfItems(inSection: section) != items.count {
      problems.append("count of \(section)")
    }
    for (position, item) in items.enumerated() {
      let path = IndexPath(item: position, section: index)
      if snapshot.indexPath(ofItem: item.id) != path {
        problems.append(
          "\(item.id) at \(path), found at \(String(describing: snapshot.indexPath(ofItem: item.id)))"
        )
      }
      if snapshot.item(at: path) != item { problems.append("item at \(path)") }
      if snapshot.item(withIdentifier: item.id) != item { problems.append("item \(item.id)") }
      if snapshot.sectionIdentifier(containingItem: item.id) != section {
        problems.append("section of \(item.id)")
      }
    }
    total += items.count
  }
  if snapshot.numberOfItems != total { problems.append("numberOfItems \(snapshot.numberOfItems)") }
  if snapshot.itemIdentifiers.count != total || Set(snapshot.itemIdentifiers).count != total {
    problems.append("itemIdentifiers \(snapshot.itemIdentifiers)")
  }
  #expect(problems.isEmpty, "\(problems.prefix(5))", sourceLocation: sourceLocation)
}

@Suite(.timeLimit(.minutes(1))) struct CollectionSnapshotTests {
  @Test func sectionsAndItemsAreReadBackByPositionAndByIdentifier() throws {
    var snapshot = Snapshot()
    #expect(snapshot.numberOfSections == 0 && snapshot.numberOfItems == 0)
    try snapshot.appendSections(["a", "b"])
    try snapshot.appendItems(notes(0..<3), toSection: "a")
    try snapshot.appendItems(notes(3..<5))  // the last section, "b"
    try snapshot.appendSections(["c"])
    #expect(snapshot.sectionIdentifiers == ["a", "b", "c"])
    #expect(snapshot.itemIdentifiers == [0, 1, 2, 3, 4])
    #expect(try snapshot.items(inSection: "b") == notes(3..<5))
    #expect(try snapshot.itemIdentifiers(inSection: "c") == [])
    #expect(try snapshot.numberOfItems(inSection: "a") == 3)
    #expect(snapshot.numberOfItems == 5 && snapshot.numberOfSections == 3)
    #expect(snapshot.indexOfSection("b") == 1)
    #expect(snapshot.indexOfSection("z") == nil)
    #expect(snapshot.indexPath(ofItem: 4) == IndexPath(item: 1, section: 1))
    #expect(snapshot.indexPath(ofItem: 99) == nil)
    #expect(snapshot.item(at: IndexPath(item: 2, section: 0)) == Note(id: 2))
    #expect(snapshot.item(at: IndexPath(item: 0, section: 2)) == nil)
    #expect(snapshot.item(at: IndexPath(item: -1, section: 0)) == nil)
    #expect(snapshot.item(at: IndexPath(item: 0, section: 3)) == nil)
    #expect(snapshot.item(withIdentifier: 3)?.text == "note 3")
    #expect(snapshot.item(withIdentifier: 99) == nil)
    #expect(snapshot.sectionIdentifier(containingItem: 3) == "b")
    #expect(snapshot.sectionIdentifier(containingItem: 99) == nil)
    try expectConsistent(snapshot)
  }

  @Test func insertingBeforeAndAfterAnItemShiftsTheRestOfItsSection() throws {
    var snapshot = try sample()
    try snapshot.insertItems(notes([10, 11]), beforeItem: 1)
    #expect(try shape(snapshot) == ["a": [0, 10, 11, 1, 2], "b": [3, 4], "c": []])
    try snapshot.insertItems(notes([12]), afterItem: 4)
    try snapshot.insertItems(notes([13]), beforeItem: 3)
    try snapshot.insertItems(notes([14]), afterItem: 2)
    #expect(try shape(snapshot) == ["a": [0, 10, 11, 1, 2, 14], "b": [13, 3, 4, 12], "c": []])
    #expect(snapshot.indexPath(ofItem: 2) == IndexPath(item: 4, section: 0))
    #expect(snapshot.numberOfItems == 10)
    try expectConsistent(snapshot)
  }

  @Test func deletingItemsAndSectionsMovesWhatFollows() throws {
    var snapshot = try sample()
    try snapshot.deleteItems([1, 3, 1])
    #expect(try shape(snapshot) == ["a": [0, 2], "b": [4], "c": []])
    #expect(snapshot.numberOfItems == 3)
    try expectConsistent(snapshot)
    try snapshot.deleteSections(["a"])
    #expect(snapshot.sectionIdentifiers == ["b", "c"])
    #expect(snapshot.indexPath(ofItem: 4) == IndexPath(item: 0, section: 0))
    #expect(snapshot.indexPath(ofItem: 0) == nil)
    #expect(snapshot.indexOfSection("c") == 1)
    #expect(snapshot.indexOfSection("a") == nil)
    #expect(snapshot.numberOfItems == 1)
    try expectConsistent(snapshot)
    // A deleted section's items can come back; its identifier is free again.
    try snapshot.appendSections(["a"])
    try snapshot.appendItems(notes(0..<3))
    #expect(snapshot.indexPath(ofItem: 2) == IndexPath(item: 2, section: 2))
    try expectConsistent(snapshot)
    snapshot.deleteAllItems()
    #expect(snapshot == Snapshot())
    #expect(snapshot.indexPath(ofItem: 4) == nil)
  }

  @Test func itemsMoveWithinAndAcrossSections() throws {
    var snapshot = try sample()
    try snapshot.moveItem(0, afterItem: 2)
    #expect(try shape(snapshot) == ["a": [1, 2, 0], "b": [3, 4], "c": []])
    try expectConsistent(snapshot)
    try snapshot.moveItem(2, beforeItem: 1)
    #expect(try shape(snapshot) == ["a": [2, 1, 0], "b": [3, 4], "c": []])
    try expectConsistent(snapshot)
    try snapshot.moveItem(4, beforeItem: 2)
    #expect(try shape(snapshot) == ["a": [4, 2, 1, 0], "b": [3], "c": []])
    try expectConsistent(snapshot)
    try snapshot.moveItem(1, afterItem: 3)
    #expect(try shape(snapshot) == ["a": [4, 2, 0], "b": [3, 1], "c": []])
    try expectConsistent(snapshot)
    try snapshot.moveItem(0, beforeItem: 4)
    #expect(try shape(snapshot) == ["a": [0, 4, 2], "b": [3, 1], "c": []])
    try expectConsistent(snapshot)
  }

  @Test func updatingAnItemReplacesItsContentWhereItIs() throws {
    var snapshot = try sample()
    try snapshot.updateItems([Note(id: 1, text: "edited"), Note(id: 4, text: "too")])
    #expect(snapshot.item(at: IndexPath(item: 1, section: 0))?.text == "edited")
    #expect(snapshot.item(withIdentifier: 4)?.text == "too")
    #expect(snapshot.itemIdentifiers == [0, 1, 2, 3, 4])
    #expect(snapshot != (try sample()))
    try expectConsistent(snapshot)
  }

  @Test func everyRefusalThrowsAndChangesNothing() throws {
    let original = try sample()
    func refuses(
      _ expected: CollectionError, sourceLocation: SourceLocation = #_sourceLocation,
      _ edit: (inout Snapshot) throws -> Void
    ) throws {
      var copy = original
      _ = copy.indexPath(ofItem: 0)  // a built table, which the refused edit must leave right
      #expect(throws: expected, sourceLocation: sourceLocation) { try edit(&copy) }
      #expect(copy == original, sourceLocation: sourceLocation)
      try expectConsistent(copy, sourceLocation: sourceLocation)
    }
    try refuses(.duplicateSectionIdentifier("a")) { try $0.appendSections(["a"]) }
    try refuses(.duplicateSectionIdentifier("d")) { try $0.appendSections(["d", "e", "d"]) }
    try refuses(.unknownSection("z")) { try $0.appendItems(notes([9]), toSection: "z") }
    try refuses(.unknownSection("z")) { try $0.deleteSections(["b", "z"]) }
    try refuses(.unknownSection("z")) { _ = try $0.items(inSection: "z") }
    try refuses(.unknownSection("z")) { _ = try $0.itemIdentifiers(inSection: "z") }
    try refuses(.unknownSection("z")) { _ = try $0.numberOfItems(inSection: "z") }
    // A duplicate is named where it would have gone.
    try refuses(.duplicateIdentifier("1", at: IndexPath(item: 4, section: 0))) {
      try $0.appendItems(notes([7, 1]), toSection: "a")
    }
    try refuses(.duplicateIdentifier("8", at: IndexPath(item: 1, section: 2))) {
      try $0.appendItems(notes([8, 8]))
    }
    try refuses(.duplicateIdentifier("0", at: IndexPath(item: 1, section: 1))) {
      try $0.insertItems(notes([0]), afterItem: 3)
    }
    try refuses(.duplicateIdentifier("5", at: IndexPath(item: 2, section: 1))) {
      try $0.insertItems(notes([5, 5]), beforeItem: 4)
    }
    try refuses(.unknownItem("99")) { try $0.insertItems(notes([9]), beforeItem: 99) }
    try refuses(.unknownItem("99")) { try $0.insertItems(notes([9]), afterItem: 99) }
    try refuses(.unknownItem("99")) { try $0.deleteItems([0, 99]) }
    try refuses(.unknownItem("99")) { try $0.moveItem(99, beforeItem: 0) }
    try refuses(.unknownItem("99")) { try $0.moveItem(0, afterItem: 99) }
    try refuses(.itemMovedRelativeToItself("2")) { try $0.moveItem(2, beforeItem: 2) }
    try refuses(.itemMovedRelativeToItself("2")) { try $0.moveItem(2, afterItem: 2) }
    try refuses(.unknownItem("99")) {
      try $0.updateItems([Note(id: 0, text: "edited"), Note(id: 99)])
    }
    var empty = Snapshot()
    #expect(throws: CollectionError.noSections) { try empty.appendItems(notes([1])) }
    #expect(empty == Snapshot())
    #expect(
      CollectionError.duplicateSectionIdentifier("a").description
        == "duplicate section identifier a: section identifiers must be unique")
  }

  @Test func copiesEditedApartKeepTheirOwnLookUps() throws {
    var first = try sample()
    _ = first.indexPath(ofItem: 4)  // the table, shared by the copy below
    var second = first
    try second.insertItems(notes([9]), beforeItem: 3)
    try second.deleteItems([0])
    try second.moveItem(4, beforeItem: 1)
    #expect(first.indexPath(ofItem: 4) == IndexPath(item: 1, section: 1))
    #expect(first.indexPath(ofItem: 0) == IndexPath(item: 0, section: 0))
    #expect(first.indexPath(ofItem: 9) == nil)
    #expect(second.indexPath(ofItem: 4) == IndexPath(item: 0, section: 0))
    try expectConsistent(first)
    try expectConsistent(second)
    // Edited before any look-up, then the other way round.
    let untouched = try sample()
    var edited = untouched
    try edited.deleteSections(["a"])
    try first.appendItems(notes([20]), toSection: "c")
    #expect(untouched.indexPath(ofItem: 3) == IndexPath(item: 0, section: 1))
    #expect(edited.indexPath(ofItem: 3) == IndexPath(item: 0, section: 0))
    #expect(first.indexPath(ofItem: 20) == IndexPath(item: 0, section: 2))
    #expect(second.indexPath(ofItem: 20) == nil)
    try expectConsistent(untouched)
    try expectConsistent(edited)
    try expectConsistent(first)
  }

  @Test func randomEditsAgreeWithAPlainModel() throws {
    var random = SplitMix64(seed: 25)
    var snapshot = Snapshot()
    var model: [(id: String, items: [Note])] = []
    var nextItem = 0
    var nextSection = 0
    for _ in 0..<600 {
      let all = model.flatMap { $0.items.map(\.id) }
      switch Int.random(in: 0..<8, using: &random) {
      case 0 where model.count < 6 || all.isEmpty:
        let id = "s\(nextSection)"
        nextSection += 1
        try snapshot.appendSections([id])
        model.append((id, []))
      case 1 where !model.isEmpty:
        let section = Int.random(in: 0..<model.count, using: &random)
        let new = notes(nextItem..<(nextItem + Int.random(in: 0...4, using: &random)))
        nextItem += new.count
        try snapshot.appendItems(new, toSection: model[section].id)
        model[section].items += new
      case 2 where !all.isEmpty, 3 where !all.isEmpty:
        let anchor = random.pick(all)
        let after = Bool.random(using: &random)
        let new = notes(nextItem..<(nextItem + Int.random(in: 1...3, using: &random)))
        nextItem += new.count
        if after {
          try snapshot.insertItems(new, afterItem: anchor)
        } else {
          try snapshot.insertItems(new, beforeItem: anchor)
        }
        let section = model.firstIndex { $0.items.contains { $0.id == anchor } }!
        let index = model[section].items.firstIndex { $0.id == anchor }! + (after ? 1 : 0)
        model[section].items.insert(contentsOf: new, at: index)
      case 4 where !all.isEmpty:
        let doomed = Set((0..<Int.random(in: 1...3, using: &random)).map { _ in random.pick(all) })
        try snapshot.deleteItems(Array(doomed))
        for section in model.indices { model[section].items.removeAll { doomed.contains($0.id) } }
      case 5 where all.count >= 2:
        let id = random.pick(all)
        var anchor = random.pick(all)
        while anchor == id { anchor = random.pick(all) }
        let after = Bool.random(using: &random)
        if after {
          try snapshot.moveItem(id, afterItem: anchor)
        } else {
          try snapshot.moveItem(id, beforeItem: anchor)
        }
        var moved: Note?
        for section in model.indices {
          if let index = model[section].items.firstIndex(where: { $0.id == id }) {
            moved = model[section].items.remove(at: index)
          }
        }
        let section = model.firstIndex { $0.items.contains { $0.id == anchor } }!
        let index = model[section].items.firstIndex { $0.id == anchor }! + (after ? 1 : 0)
        model[section].items.insert(moved!, at: index)
      case 6 where model.count > 1 && Int.random(in: 0..<4, using: &random) == 0:
        let section = Int.random(in: 0..<model.count, using: &random)
        try snapshot.deleteSections([model[section].id])
        model.remove(at: section)
      case 7 where !all.isEmpty:
        // A refusal in the middle of the sequence must leave the table right.
        let existing = random.pick(all)
        #expect(throws: CollectionError.self) {
          try snapshot.appendItems([Note(id: nextItem), Note(id: existing)])
        }
      default:
        if !all.isEmpty {
          let id = random.pick(all)
          try snapshot.updateItems([Note(id: id, text: "edited \(nextItem)")])
          for section in model.indices {
            if let index = model[section].items.firstIndex(where: { $0.id == id }) {
              model[section].items[index].text = "edited \(nextItem)"
            }
          }
          nextItem += 1
        }
      }
      #expect(snapshot.sectionIdentifiers == model.map(\.id))
      for (section, entry) in model.enumerated() {
        #expect(snapshot.item(at: IndexPath(item: 0, section: section)) == entry.items.first)
        #expect(try snapshot.items(inSection: entry.id) == entry.items)
      }
      try expectConsistent(snapshot)
    }
    #expect(snapshot.numberOfItems > 20)
  }

  @Test func lookUpsFromManyTasksAtOnceAgree() async throws {
    var snapshot = Snapshot()
    try snapshot.appendSections(["a", "b"])
    try snapshot.appendItems(notes(0..<5_000), toSection: "a")
    try snapshot.appendItems(notes(5_000..<10_000), toSection: "b")
    var copy = snapshot
    try copy.deleteItems([0])  // drops the copy's table; the original has none built yet
    let shared = snapshot
    let wrong = await withTaskGroup(of: Int.self) { group in
      for task in 0..<4 {
        group.addTask {
          var wrong = 0
          for id in stride(from: task, to: 10_000, by: 3) {
            let expected = IndexPath(item: id % 5_000, section: id / 5_000)
            if shared.indexPath(ofItem: id) != expected { wrong += 1 }
          }
          return wrong
        }
      }
      return await group.reduce(0, +)
    }
    #expect(wrong == 0)
    #expect(copy.indexPath(ofItem: 1) == IndexPath(item: 0, section: 0))
  }
}
