/// What there is to lay out: item counts per section and the heights of supplementary views
/// (0 where a section has none). Items are also numbered across sections ("flat" indices).
///
/// Building is O(sections); flat index ↔ index path conversion is O(log sections).
public struct SectionedContent: Sendable, Equatable {
  /// The number of items in each section.
  public let itemCounts: [Int]
  /// Each section's header height, 0 for none.
  public let sectionHeaderHeights: [Int]
  /// Each section's footer height, 0 for none.
  public let sectionFooterHeights: [Int]
  /// The height of the header above all sections, 0 for none.
  public let collectionHeaderHeight: Int
  /// The height of the footer below all sections, 0 for none.
  public let collectionFooterHeight: Int
  /// `itemStarts[s]` is the flat index of section `s`'s first item; one extra entry at the end.
  public let itemStarts: [Int]

  /// Negative counts and heights are treated as 0 (bad data source input must not crash).
  public init(
    itemCounts: [Int], sectionHeaderHeights: [Int] = [], sectionFooterHeights: [Int] = [],
    collectionHeaderHeight: Int = 0, collectionFooterHeight: Int = 0
  ) {
    let counts = itemCounts.map { max(0, $0) }
    self.itemCounts = counts
    self.sectionHeaderHeights = counts.indices.map {
      $0 < sectionHeaderHeights.count ? max(0, sectionHeaderHeights[$0]) : 0
    }
    self.sectionFooterHeights = counts.indices.map {
      $0 < sectionFooterHeights.count ? max(0, sectionFooterHeights[$0]) : 0
    }
    self.collectionHeaderHeight = max(0, collectionHeaderHeight)
    self.collectionFooterHeight = max(0, collectionFooterHeight)
    var starts = [0]
    starts.reserveCapacity(counts.count + 1)
    for count in counts { starts.append(starts[starts.count - 1] + count) }
    self.itemStarts = starts
  }

  /// No sections at all.
  public static let empty = SectionedContent(itemCounts: [])

  /// The number of sections.
  public var sectionCount: Int { itemCounts.count }
  /// The number of items in all sections.
  public var totalItems: Int { itemStarts[itemStarts.count - 1] }

  /// The flat index of `path`, or nil when it does not exist.
  public func flatIndex(of path: IndexPath) -> Int? {
    guard path.section >= 0, path.section < itemCounts.count, path.item >= 0,
      path.item < itemCounts[path.section]
    else { return nil }
    return itemStarts[path.section] + path.item
  }

  /// The index path of flat index `flat` (which must be in `0..<totalItems`).
  public func indexPath(ofFlat flat: Int) -> IndexPath {
    let section = self.section(ofFlat: flat)
    return IndexPath(item: flat - itemStarts[section], section: section)
  }

  /// The section holding flat index `flat`: the last section whose start is ≤ flat and which
  /// is not empty. O(log sections).
  public func section(ofFlat flat: Int) -> Int {
    var low = 0
    var high = itemCounts.count - 1
    while low < high {
      let mid = (low + high + 1) / 2
      if itemStarts[mid] <= flat { low = mid } else { high = mid - 1 }
    }
    // Skip back over empty sections that share the start.
    while low > 0 && itemCounts[low] == 0 { low -= 1 }
    return low
  }

  /// The height of a supplementary view, 0 when absent.
  public func height(of kind: SupplementaryKind, section: Int) -> Int {
    switch kind {
    case .collectionHeader: collectionHeaderHeight
    case .collectionFooter: collectionFooterHeight
    case .sectionHeader:
      section >= 0 && section < sectionHeaderHeights.count ? sectionHeaderHeights[section] : 0
    case .sectionFooter:
      section >= 0 && section < sectionFooterHeights.count ? sectionFooterHeights[section] : 0
    }
  }
}
