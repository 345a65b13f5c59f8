import TesseraUtilities

/// Why a layout is being prepared, so it can keep what is still true.
public enum LayoutPreparation: Sendable {
  /// New content, nothing carried over (reloadData, a layout newly installed).
  case reload
  /// Same content, the viewport width changed.
  case resize
  /// Items were inserted, deleted, moved or reloaded. `previousFlatIndex[new]` is the item's
  /// flat index before the update, nil for inserted and reloaded items: per-item state
  /// (measured heights, heights per width) follows the item's identity.
  case update(previousFlatIndex: [Int?])
}

/// Places items and supplementary views in content coordinates (y grows downwards, whole
/// units). The collection view asks only for what intersects a band of y, so a layout can
/// hold a million items and still answer each frame in O(log n + visible).
@MainActor
public protocol CollectionLayout: AnyObject {
  /// Lays `content` out for a viewport `width`.
  func prepare(_ content: SectionedContent, width: Int, reason: LayoutPreparation)

  /// The height of everything laid out.
  var contentHeight: Int { get }

  /// Appends the elements intersecting `band`, in ascending y (then x) order.
  func elements(intersecting band: Range<Int>, into elements: inout [LayoutElement])

  /// The frame of one element, nil when it does not exist (or has zero height).
  func frame(of element: ElementID) -> Rect?

  /// A range of flat item indices containing every item that intersects `band` (it may hold
  /// a few more); the prefetcher diffs these ranges frame to frame.
  func itemRange(intersecting band: Range<Int>) -> Range<Int>

  /// Whether views size themselves: the collection view then asks each view entering the
  /// screen for `preferredHeight(forWidth:)` and reports it with `setMeasuredHeight`.
  var sizesViewsToFit: Bool { get }

  /// Whether an element's height is still an estimate (never measured).
  func isEstimated(_ element: ElementID) -> Bool

  /// Records a measured height. Returns whether any frame changed.
  func setMeasuredHeight(_ height: Int, of element: ElementID) -> Bool

  /// Forgets a measurement: the element keeps its height as an estimate until measured again.
  func invalidateMeasurement(of element: ElementID)

  /// Records an item's height ÷ width (its image's aspect ratio inverted), e.g. when its image
  /// arrives. Returns whether any frame changed.
  func setHeightPerWidth(_ ratio: Double, ofItem item: IndexPath) -> Bool

  /// The band a section occupies, from its header's top to its footer's bottom, nil when the
  /// section does not exist. A pinned header stays inside it.
  func extent(ofSection section: Int) -> Range<Int>?
}

/// A layout of fixed sizes needs none of the measuring: these defaults ignore it.
extension CollectionLayout {
  /// False: views keep the layout's sizes.
  public var sizesViewsToFit: Bool { false }
  /// False: no height is an estimate.
  public func isEstimated(_ element: ElementID) -> Bool { false }
  /// Ignores the measurement; returns false.
  public func setMeasuredHeight(_ height: Int, of element: ElementID) -> Bool { false }
  /// Does nothing.
  public func invalidateMeasurement(of element: ElementID) {}
  /// Ignores the shape; returns false.
  public func setHeightPerWidth(_ ratio: Double, ofItem item: IndexPath) -> Bool { false }
  /// Nil: a layout that does not say where its sections are gets no pinned headers.
  public func extent(ofSection section: Int) -> Range<Int>? { nil }
}

/// Division rounding towards negative infinity (Swift's `/` rounds towards zero).
@inline(__always)
func floorDiv(_ a: Int, _ b: Int) -> Int {
  let q = a / b
  return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
}

/// A whole-unit height from a width and a height ÷ width, at least 1; non-finite or
/// non-positive ratios fall back to `fallback`.
func roundedHeight(width: Double, heightPerWidth: Double, fallback: Double) -> Int {
  let ratio = heightPerWidth.isFinite && heightPerWidth > 0 ? heightPerWidth : fallback
  return Int(clamping: width * ratio, to: 1...1_000_000_000)
}
