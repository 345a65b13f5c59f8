import TesseraUtilities
import Testing

@testable import TesseraCollection

@Suite struct IdentifierDiffTests {
  @Test func randomEditsAreDescribedExactly() throws {
    var random = SplitMix64(seed: 11)
    for _ in 0..<200 {
      let old = Array(0..<Int.random(in: 0...60, using: &random)).shuffled(using: &random)
      var new = old.filter { _ in Int.random(in: 0..<4, using: &random) != 0 }
      for id in 1_000..<(1_000 + Int.random(in: 0...10, using: &random)) {
        new.insert(id, at: Int.random(in: 0...new.count, using: &random))
      }
      if new.count > 2 && Bool.random(using: &random) { new.swapAt(0, new.count - 1) }
      let diff = try IdentifierDiff(old: old, new: new)
      // The mapping rebuilds `new` from `old` and the inserts.
      for (index, id) in new.enumerated() {
        if let from = diff.newToOld[index] {
          #expect(old[from] == id)
          #expect(diff.oldToNew[from] == index)
        } else {
          #expect(diff.inserts.contains(index))
          #expect(!old.contains(id))
        }
      }
      #expect(diff.deletes == old.indices.filter { !new.contains(old[$0]) })
      #expect(diff.inserts == new.indices.filter { !old.contains(new[$0]) })
      // A kept item whose position is not explained by inserts/deletes before it is a move.
      for move in diff.moves {
        #expect(old[move.from] == new[move.to])
      }
    }
  }

  @Test func aSwapIsTwoMovesAndNothingElse() throws {
    let diff = try IdentifierDiff(old: ["a", "b", "c"], new: ["c", "b", "a"])
    #expect(diff.deletes.isEmpty && diff.inserts.isEmpty)
    #expect(diff.moves.map(\.to) == [0, 2])
    let same = try IdentifierDiff(old: ["a", "b"], new: ["a", "b"])
    #expect(!same.hasChanges)
  }

  @Test func duplicatesAreAClearErrorOnEitherSide() {
    #expect(throws: CollectionError.duplicateIdentifier("b", at: IndexPath(item: 2, section: 0))) {
      try IdentifierDiff(old: ["a", "b"], new: ["a", "b", "b"])
    }
    #expect(throws: CollectionError.duplicateIdentifier("a", at: IndexPath(item: 1, section: 0))) {
      try IdentifierDiff(old: ["a", "a"], new: ["a"])
    }
  }
}
