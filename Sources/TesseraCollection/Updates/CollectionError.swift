/// What the collection view refuses, with enough said to fix the caller.
public enum CollectionError: Error, Equatable, Sendable, CustomStringConvertible {
  /// Two items share an identifier (`position` is where the second one is).
  case duplicateIdentifier(String, at: IndexPath)
  /// The identifiers given to a batch update disagree with the data source's counts.
  case countMismatch(section: Int, identifiers: Int, dataSource: Int)
  case sectionCountMismatch(identifiers: Int, dataSource: Int)
  /// An index path that does not exist in the current content.
  case invalidIndexPath(IndexPath)

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
    }
  }
}
