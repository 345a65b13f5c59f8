/// The difference between two sequences of unique identifiers, by identity (Paul Heckel's
/// 1978 algorithm, as IGListKit uses it). With unique identifiers, Heckel's passes reduce to
/// one symbol table: an identifier present on both sides is the same item, wherever it went.
///
/// O(n + m) time and space.
public struct IdentifierDiff: Equatable, Sendable {
  /// A kept identifier at another position.
  public struct Move: Equatable, Sendable {
    /// Its old index.
    public var from: Int
    /// Its new index.
    public var to: Int
  }

  /// Old indices of removed identifiers, ascending.
  public var deletes: [Int] = []
  /// New indices of added identifiers, ascending.
  public var inserts: [Int] = []
  /// Kept identifiers whose position changed beyond what the inserts and deletes before
  /// them explain, ascending by `to`.
  public var moves: [Move] = []
  /// For each new index, the old index of the same identifier, nil if inserted.
  public var newToOld: [Int?] = []
  /// For each old index, the new index of the same identifier, nil if deleted.
  public var oldToNew: [Int?] = []

  /// Whether anything was inserted, deleted or moved.
  public var hasChanges: Bool { !deletes.isEmpty || !inserts.isEmpty || !moves.isEmpty }

  /// A duplicate on either side is reported as `CollectionError.duplicateIdentifier` with
  /// its flat position (section 0); callers with sections translate it.
  public init<ID: Hashable>(old: [ID], new: [ID]) throws(CollectionError) {
    var oldIndex: [ID: Int] = [:]
    oldIndex.reserveCapacity(old.count)
    for (index, id) in old.enumerated() {
      guard oldIndex.updateValue(index, forKey: id) == nil else {
        throw .duplicateIdentifier(String(describing: id), at: IndexPath(item: index, section: 0))
      }
    }
    var seenNew = Set<ID>()
    seenNew.reserveCapacity(new.count)
    newToOld = [Int?](repeating: nil, count: new.count)
    oldToNew = [Int?](repeating: nil, count: old.count)
    for (index, id) in new.enumerated() {
      guard seenNew.insert(id).inserted else {
        throw .duplicateIdentifier(String(describing: id), at: IndexPath(item: index, section: 0))
      }
      if let from = oldIndex[id] {
        newToOld[index] = from
        oldToNew[from] = index
      } else {
        inserts.append(index)
      }
    }
    var deletesBefore = [Int](repeating: 0, count: old.count)
    var running = 0
    for index in old.indices {
      deletesBefore[index] = running
      if oldToNew[index] == nil {
        deletes.append(index)
        running += 1
      }
    }
    running = 0
    for index in new.indices {
      guard let from = newToOld[index] else {
        running += 1
        continue
      }
      if from - deletesBefore[from] + running != index { moves.append(Move(from: from, to: index)) }
    }
  }
}
