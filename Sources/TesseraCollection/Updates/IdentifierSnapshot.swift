/// The item identifiers the collection view last saw, type-erased so the view itself need
/// not be generic.
@MainActor
protocol IdentifierSnapshot: AnyObject {}

/// Identifiers per section, with a lazily built id → index path table (O(n) once per
/// snapshot, then O(1) lookups).
@MainActor
final class IdentifierSnapshotBox<ID: Hashable>: IdentifierSnapshot {
  let sections: [[ID]]
  private var positions: [ID: IndexPath]?

  init(_ sections: [[ID]]) { self.sections = sections }

  var flat: [ID] { sections.flatMap { $0 } }

  func indexPath(of id: ID) -> IndexPath? {
    if positions == nil {
      var table: [ID: IndexPath] = [:]
      for (section, ids) in sections.enumerated() {
        for (item, id) in ids.enumerated() { table[id] = IndexPath(item: item, section: section) }
      }
      positions = table
    }
    return positions?[id]
  }

  /// Throws on the first duplicate, naming its index path.
  static func validate(_ sections: [[ID]]) throws(CollectionError) {
    var seen = Set<ID>()
    for (section, ids) in sections.enumerated() {
      for (item, id) in ids.enumerated() where !seen.insert(id).inserted {
        throw .duplicateIdentifier(
          String(describing: id), at: IndexPath(item: item, section: section))
      }
    }
  }
}
