import TesseraCollection

/// A day's or a month's header over local photos: one row, drawn from the feed's section
/// title at draw time (a header that stays on screen through an update may now head another
/// section, so it holds no text of its own).
@MainActor
final class SectionHeaderView: ReusableView {
  init() {}
}

/// Index paths and the feed's flat item indices: the collection engine counts items per
/// section, the feed (and the selection) in one run across sections.
extension GalleryScreen {
  /// The flat index of `path`, nil when it names no item.
  /// - Complexity: O(1).
  func flatIndex(of path: IndexPath) -> Int? {
    let sections = feed.sections
    guard sections.indices.contains(path.section) else { return nil }
    let range = sections[path.section].range
    guard path.item >= 0, path.item < range.count else { return nil }
    return range.lowerBound + path.item
  }

  /// The index path of flat index `index`, nil outside the items.
  /// - Complexity: O(log sections), a binary search over the sections' starts.
  func indexPath(ofFlat index: Int) -> IndexPath? {
    let sections = feed.sections
    guard index >= 0, index < feed.items.count else { return nil }
    var low = 0
    var high = sections.count - 1
    while low < high {
      let middle = (low + high + 1) / 2
      if sections[middle].range.lowerBound <= index { low = middle } else { high = middle - 1 }
    }
    guard sections.indices.contains(low), sections[low].range.contains(index) else { return nil }
    return IndexPath(item: index - sections[low].range.lowerBound, section: low)
  }

  /// The items' ids per section, as the engine diffs them.
  var sectionIdentifiers: [[String]] {
    feed.sections.map { section in Array(feed.itemIDs[section.range]) }
  }

  /// Tells the feed which items the screen shows (and the screen below), when that changed:
  /// a local library reads their headers first.
  func announceVisibleItems() {
    guard let prioritize = feed.prioritize else { return }
    let visible = collectionView.indexPathsForVisibleItems.compactMap(flatIndex(of:))
    guard let first = visible.min(), let last = visible.max() else { return }
    let wanted = first..<min(feed.items.count, last + 1 + (last - first + 1))
    guard wanted != feedProgress.announcedItems else { return }
    feedProgress.announcedItems = wanted
    prioritize(Array(feed.items[wanted]))
  }
}
