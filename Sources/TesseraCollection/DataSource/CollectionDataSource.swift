/// What to show, in UIKit's shape. Counts are read on `reloadData` and batch updates; cells
/// and supplementary views are asked for as they come on screen and must come from
/// `collectionView.dequeueReusableCell(for:)` / `dequeueReusableSupplementaryView(ofKind:for:)`.
@MainActor
public protocol CollectionDataSource: AnyObject {
  func numberOfSections(in collectionView: CollectionView) -> Int
  func collectionView(_ collectionView: CollectionView, numberOfItemsInSection section: Int) -> Int
  func collectionView(
    _ collectionView: CollectionView, cellForItemAt indexPath: IndexPath
  )
    -> any ReusableView

  /// The height of a supplementary view, 0 (the default) when there is none. Collection
  /// header and footer are asked with section 0.
  func collectionView(
    _ collectionView: CollectionView, heightForSupplementaryElementOfKind kind: SupplementaryKind,
    inSection section: Int
  ) -> Int

  /// The view for a supplementary element whose height is above 0.
  func collectionView(
    _ collectionView: CollectionView, viewForSupplementaryElementOfKind kind: SupplementaryKind,
    at indexPath: IndexPath
  ) -> (any ReusableView)?

  /// Items entered the prefetch window (ahead of and behind the screen): start their work.
  func collectionView(_ collectionView: CollectionView, prefetchItemsAt indexPaths: [IndexPath])

  /// Items left the prefetch window without being shown: their work may stop.
  func collectionView(
    _ collectionView: CollectionView, cancelPrefetchingForItemsAt indexPaths: [IndexPath])
}

/// A data source needs only its counts and cells: one section, no supplementary views, no
/// prefetching by default.
extension CollectionDataSource {
  /// One section.
  public func numberOfSections(in collectionView: CollectionView) -> Int { 1 }
  /// 0: no supplementary views.
  public func collectionView(
    _ collectionView: CollectionView, heightForSupplementaryElementOfKind kind: SupplementaryKind,
    inSection section: Int
  ) -> Int { 0 }
  /// Nil: no supplementary views.
  public func collectionView(
    _ collectionView: CollectionView, viewForSupplementaryElementOfKind kind: SupplementaryKind,
    at indexPath: IndexPath
  ) -> (any ReusableView)? { nil }
  /// Does nothing.
  public func collectionView(
    _ collectionView: CollectionView, prefetchItemsAt indexPaths: [IndexPath]
  ) {}
  /// Does nothing.
  public func collectionView(
    _ collectionView: CollectionView, cancelPrefetchingForItemsAt indexPaths: [IndexPath]
  ) {}
}
