/// Display and scrolling events, in UIKit's shape. Every method has an empty default.
///
/// Scrolling events come from explicit input and `tick(by:)`: `willBeginDragging` on
/// `beginDrag`, `didEndDragging(willDecelerate:)` on `endDrag`, `didEndDecelerating` when a
/// fling comes to rest (or is clamped at an end), `didEndScrollingAnimation` when an animated
/// `scroll(by:)`, page or `scrollToItem` lands, and `didScroll` on every offset change.
@MainActor
public protocol CollectionDelegate: AnyObject {
  func collectionView(
    _ collectionView: CollectionView, willDisplay cell: any ReusableView,
    forItemAt indexPath: IndexPath)
  func collectionView(
    _ collectionView: CollectionView, didEndDisplaying cell: any ReusableView,
    forItemAt indexPath: IndexPath)
  func collectionView(
    _ collectionView: CollectionView, willDisplaySupplementaryView view: any ReusableView,
    ofKind kind: SupplementaryKind, at indexPath: IndexPath)
  func collectionView(
    _ collectionView: CollectionView, didEndDisplayingSupplementaryView view: any ReusableView,
    ofKind kind: SupplementaryKind, at indexPath: IndexPath)
  func collectionViewDidScroll(_ collectionView: CollectionView)
  func collectionViewWillBeginDragging(_ collectionView: CollectionView)
  func collectionViewDidEndDragging(_ collectionView: CollectionView, willDecelerate: Bool)
  func collectionViewDidEndDecelerating(_ collectionView: CollectionView)
  func collectionViewDidEndScrollingAnimation(_ collectionView: CollectionView)
}

/// Every event is optional: the defaults do nothing.
extension CollectionDelegate {
  /// Does nothing.
  public func collectionView(
    _ collectionView: CollectionView, willDisplay cell: any ReusableView,
    forItemAt indexPath: IndexPath
  ) {}
  /// Does nothing.
  public func collectionView(
    _ collectionView: CollectionView, didEndDisplaying cell: any ReusableView,
    forItemAt indexPath: IndexPath
  ) {}
  /// Does nothing.
  public func collectionView(
    _ collectionView: CollectionView, willDisplaySupplementaryView view: any ReusableView,
    ofKind kind: SupplementaryKind, at indexPath: IndexPath
  ) {}
  /// Does nothing.
  public func collectionView(
    _ collectionView: CollectionView, didEndDisplayingSupplementaryView view: any ReusableView,
    ofKind kind: SupplementaryKind, at indexPath: IndexPath
  ) {}
  /// Does nothing.
  public func collectionViewDidScroll(_ collectionView: CollectionView) {}
  /// Does nothing.
  public func collectionViewWillBeginDragging(_ collectionView: CollectionView) {}
  /// Does nothing.
  public func collectionViewDidEndDragging(_ collectionView: CollectionView, willDecelerate: Bool) {
  }
  /// Does nothing.
  public func collectionViewDidEndDecelerating(_ collectionView: CollectionView) {}
  /// Does nothing.
  public func collectionViewDidEndScrollingAnimation(_ collectionView: CollectionView) {}
}
