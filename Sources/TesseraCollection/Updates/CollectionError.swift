/// What the collection view refuses, with enough said to fix the caller.
public enum CollectionError: Error, Equatable, Sendable, CustomStringConvertible {
  /// Two items share an identifier (`position` is where the second one is).
  case duplicateIdentifier(String, at: IndexPath)
  /// The identifiers given to a batch update disagree with the data source's counts.
  case countMismatch(section: Int, identifiers: Int, dataSource: Int)
  case sectionCountMismatch(identifiers: Int, dataSource: Int)
  /// An index path that does not exist in the current content.
  case invalidIndexPath(IndexPath)
  /// A snapshot already has a section with this identifier (or it was given twice).
  case duplicateSectionIdentifier(String)
  /// A snapshot has no section with this identifier.
  case unknownSection(String)
  /// A snapshot has no item with this identifier.
  case unknownItem(String)
  /// Items were appended to a snapshot's last section, and it has no sections.
  case noSections
  /// An item was moved before or after itself.
  case itemMovedRelativeToItself(String)

  /// What went wrong, in a sentence that names the offending value.
  public var description: String {
    switch self {
    case .duplicateIdentifier(let id, let path):
      "duplicate item identifier \(id) at \(path): identifiers must be unique"
    case .countMismatch(let section, let identifiers, let dataSource):
      "section \(section): \(identifiers) identifiers but the data source reports \(dataSource) items"
    case .sectionCountMismatch(let identifiers, let dataSource):
      "\(identifiers) sections of identifiers but the data source reports \(dataSource) sections"
    case .invalidIndexPath(let path):
      "no item at \(path)"
    case .duplicateSectionIdentifier(let id):
      "duplicate section identifier \(id): section identifiers must be unique"
    case .unknownSection(let id):
      "no section with identifier \(id) in the snapshot"
    case .unknownItem(let id):
      "no item with identifier \(id) in the snapshot"
    case .noSections:
      "the snapshot has no sections: append one before appending items"
    case .itemMovedRelativeToItself(let id):
      "item \(id) cannot be moved before or after itself"
    }
  }
}
