import TesseraUtilities

extension CollectionView {
  /// How far, in content units, a prefetch window may reach past the screen: enough for any
  /// real configuration, small enough that band arithmetic cannot overflow.
  static let prefetchReach = 0...(1 << 40)

  /// Diffs the prefetch window against the last frame's: items entering it (and not just
  /// seen on screen) are announced with `prefetchItemsAt`; announced items leaving it without
  /// coming on screen are withdrawn with `cancelPrefetchingForItemsAt`. Every announced item
  /// is either withdrawn or shown, never both. O(1) ranges per frame.
  func updatePrefetch() {
    let band = visibleBand
    let visible = layout.itemRange(intersecting: band)
    let screen = Double(viewportHeight)
    let ahead = Int(clamping: prefetchWindow.aheadScreens * screen, to: Self.prefetchReach)
    let behind = Int(clamping: prefetchWindow.behindScreens * screen, to: Self.prefetchReach)
    let window =
      motion.direction >= 0
      ? (band.lowerBound - behind)..<(band.upperBound + ahead)
      : (band.lowerBound - ahead)..<(band.upperBound + behind)
    let windowItems = layout.itemRange(intersecting: window)
    // Most slow-scrolling frames move less than a row: nothing to announce or withdraw.
    if windowItems == lastPrefetchQuery.window && visible == lastPrefetchQuery.visible { return }
    lastPrefetchQuery = (windowItems, visible)
    let wanted = RangeList.subtracting([windowItems], [visible])
    // Only items coming in over the window's edges are announced: items falling behind the
    // screen into the window were just shown, their work is done.
    let entering = RangeList.subtracting(
      RangeList.subtracting(wanted, prefetchWindowItems), lastVisibleItems)
    let cancelled = RangeList.subtracting(RangeList.subtracting(prefetched, wanted), [visible])
    let kept = RangeList.subtracting(prefetched, RangeList.subtracting(prefetched, wanted))
    prefetched = RangeList.union(kept, entering)
    prefetchWindowItems = wanted
    lastVisibleItems = visible.isEmpty ? [] : [visible]
    let added = entering
    guard let dataSource else { return }
    if !cancelled.isEmpty {
      dataSource.collectionView(self, cancelPrefetchingForItemsAt: indexPaths(of: cancelled))
    }
    if !added.isEmpty {
      dataSource.collectionView(self, prefetchItemsAt: indexPaths(of: added))
    }
  }

  private func indexPaths(of ranges: [Range<Int>]) -> [IndexPath] {
    var paths: [IndexPath] = []
    for range in ranges {
      for flat in range where flat >= 0 && flat < content.totalItems {
        paths.append(content.indexPath(ofFlat: flat))
      }
    }
    return paths
  }

  /// The items currently announced for prefetching, as flat index ranges.
  public var prefetchedItemRanges: [Range<Int>] { prefetched }
}
