/// A cell or supplementary view the collection view recycles. The type is its own reuse
/// identifier (as with the Reusable library): user code never spells a string.
@MainActor
public protocol ReusableView: AnyObject {
  /// Views are created by the reuse pool when none of their type is free.
  init()

  /// Called just before a recycled view is handed out again by `dequeue…`: reset what the
  /// previous item left behind (text, image slot) so it can never show through.
  func prepareForReuse()

  /// The height this view needs at `width` once configured (text that wraps, an image's
  /// aspect), or nil to keep the layout's size. Asked only by layouts that size views to fit.
  func preferredHeight(forWidth width: Int) -> Int?
}

extension ReusableView {
  /// Does nothing: a view with nothing to reset.
  public func prepareForReuse() {}
  /// Nil: the layout's size.
  public func preferredHeight(forWidth width: Int) -> Int? { nil }
}
