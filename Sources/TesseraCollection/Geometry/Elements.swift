/// The kinds of supplementary view: per-section header and footer, and one header and one
/// footer for the whole collection (UITableView's tableHeaderView/tableFooterView).
public enum SupplementaryKind: Hashable, Sendable, CaseIterable {
  case sectionHeader
  case sectionFooter
  case collectionHeader
  case collectionFooter

  var ordinal: Int {
    switch self {
    case .sectionHeader: 0
    case .sectionFooter: 1
    case .collectionHeader: 2
    case .collectionFooter: 3
    }
  }
}

/// What a layout places: an item, or a supplementary view of a section.
///
/// Collection-level supplementary views use section 0.
public enum ElementID: Hashable, Sendable, CustomStringConvertible {
  case item(IndexPath)
  case supplementary(SupplementaryKind, section: Int)

  /// One word per element, so a dictionary look-up hashes once (the engine does several per
  /// element per frame).
  public func hash(into hasher: inout Hasher) {
    switch self {
    case .item(let path):
      hasher.combine(path.section &* 0x1_0000_0001 &+ path.item)
    case .supplementary(let kind, let section):
      hasher.combine(~(section &* 8 &+ kind.ordinal))
    }
  }

  /// The item's index path; for a supplementary view, item 0 of its section.
  public var indexPath: IndexPath {
    switch self {
    case .item(let path): path
    case .supplementary(_, let section): IndexPath(item: 0, section: section)
    }
  }

  /// `item[section, item]` or the kind with its section.
  public var description: String {
    switch self {
    case .item(let path): "item\(path)"
    case .supplementary(let kind, let section): "\(kind)(\(section))"
    }
  }
}

/// One placed element: what it is and where, in content coordinates.
public struct LayoutElement: Hashable, Sendable {
  /// Which element.
  public var id: ElementID
  /// Where, in content coordinates.
  public var frame: Rect

  /// The element `id` at `frame`.
  public init(id: ElementID, frame: Rect) {
    self.id = id
    self.frame = frame
  }
}

/// Where `scrollToItem` puts the item in the viewport.
public enum ScrollPosition: Hashable, Sendable {
  case top
  case center
  case bottom
}
