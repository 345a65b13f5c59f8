import TesseraCollection
import TesseraUtilities

/// The feed: item ids in order, cells configured through the strategy under test, and the
/// engine's prefetch, display and scroll events handed to it. Every cell ever configured is
/// remembered (for the memory figure): O(cells) memory, a handful of screens.
@MainActor
final class SimDataSource: CollectionDataSource, CollectionDelegate {
  private(set) var ids: [Int]
  let strategy: any LoadingStrategy
  let rowHeights: ClosedRange<Int>
  private(set) var cells: [SimCell] = []
  private var known: Set<ObjectIdentifier> = []

  init(ids: [Int], strategy: any LoadingStrategy, rowHeights: ClosedRange<Int>) {
    self.ids = ids
    self.strategy = strategy
    self.rowHeights = rowHeights
  }

  /// `count` new items at the top: the ids just below the current first one (the server's
  /// catalog is newest first).
  func prependNewItems(_ count: Int) {
    guard count > 0, let first = ids.first else { return }
    let newest = max(1, first - count)
    ids = Array(newest..<first) + ids
  }

  /// A list row's height: fixed per item, like text of a given length.
  func rowHeight(of item: Int) -> Int {
    let span = UInt64(rowHeights.count)
    return rowHeights.lowerBound + Int(SplitMix64.mix(UInt64(item) &+ 0x0E0E) % max(1, span))
  }

  func collectionView(_ collectionView: CollectionView, numberOfItemsInSection section: Int) -> Int
  {
    ids.count
  }

  func collectionView(
    _ collectionView: CollectionView, cellForItemAt indexPath: IndexPath
  )
    -> any ReusableView
  {
    let cell: SimCell = collectionView.dequeueReusableCell(for: indexPath)
    if known.insert(ObjectIdentifier(cell)).inserted { cells.append(cell) }
    let item = ids[indexPath.item]
    cell.item = item
    cell.rowHeight = rowHeight(of: item)
    strategy.configure(cell, item: item, at: indexPath, in: collectionView)
    return cell
  }

  func collectionView(_ collectionView: CollectionView, prefetchItemsAt indexPaths: [IndexPath]) {
    strategy.prefetch(indexPaths.compactMap { ids.indices.contains($0.item) ? ids[$0.item] : nil })
  }

  func collectionView(
    _ collectionView: CollectionView, cancelPrefetchingForItemsAt indexPaths: [IndexPath]
  ) {
    strategy.cancelPrefetching(
      indexPaths.compactMap { ids.indices.contains($0.item) ? ids[$0.item] : nil })
  }

  func collectionView(
    _ collectionView: CollectionView, didEndDisplaying cell: any ReusableView,
    forItemAt indexPath: IndexPath
  ) {
    if let cell = cell as? SimCell { strategy.didEndDisplaying(cell) }
  }

  func collectionViewDidEndDragging(_ collectionView: CollectionView, willDecelerate: Bool) {
    if !willDecelerate { scrollEnded(collectionView) }
  }

  func collectionViewDidEndDecelerating(_ collectionView: CollectionView) {
    scrollEnded(collectionView)
  }

  private func scrollEnded(_ collectionView: CollectionView) {
    strategy.scrollDidEnd(visible: collectionView.indexPathsForVisibleItems) { path in
      // The textbook fix's "load the on-screen rows" calls cellForRowAtIndexPath itself.
      _ = self.collectionView(collectionView, cellForItemAt: path)
    }
  }
}
