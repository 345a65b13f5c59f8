import TesseraUtilities

/// The headless collection view: UIKit's UICollectionView/UITableView minus the screen.
///
/// One frame, driven by the app: input (`beginDrag`/`drag(by:)`/`endDrag(velocity:)`,
/// `scroll(by:animated:)`, `pageDown`, `scrollToItem`), then `tick(by:)` to advance physics
/// on the app's clock, then `layoutIfNeeded()` — cells leaving the screen go back to the pool,
/// cells entering are dequeued and configured by the data source (and measured when the
/// layout sizes views to fit) — then `visibleCells` for the renderer.
///
/// ```swift
/// let collection = CollectionView(layout: ListLayout(estimatedItemHeight: 3), width: 80, height: 24)
/// collection.dataSource = feed          // CollectionDataSource
/// collection.delegate = feed            // CollectionDelegate (optional)
/// try collection.reloadData(identifiers: [feed.photoIDs])
/// // every frame:
/// collection.tick(by: 8.333)            // the app's clock, in milliseconds
/// collection.layoutIfNeeded()           // recycle, dequeue + configure, measure, prefetch
/// for visible in collection.visibleCells { draw(visible.cell, at: visible.frame) }
/// ```
///
/// Cost per frame: O(log n + elements on screen + prefetch window changes), independent of
/// the item count. Allocated views stay bounded by the most on screen at once (per type):
/// views leaving are recycled before views entering are dequeued.
@MainActor
public final class CollectionView {
  /// What to show (held weakly, as in UIKit): counts, cells, supplementary views, and the
  /// prefetch window's announcements.
  public weak var dataSource: (any CollectionDataSource)?
  /// Who hears about display and scrolling events (held weakly).
  public weak var delegate: (any CollectionDelegate)?

  /// The layout. Replacing it keeps the item at the top of the screen at the top.
  public var layout: any CollectionLayout {
    didSet { layoutDidChange() }
  }

  /// The visible width, in units; see `setViewport(width:height:)`.
  public private(set) var viewportWidth: Int
  /// The visible height, in units.
  public private(set) var viewportHeight: Int
  /// The scroll position, fractional while physics runs. Frames are presented at
  /// `presentedOffset`, its whole-unit rounding.
  public internal(set) var contentOffset: Double = 0
  /// How far ahead and behind the screen items are prefetched.
  public var prefetchWindow = PrefetchWindow()
  /// Whether moving the focus selects the item it lands on (UIKit's `selectionFollowsFocus`):
  /// a photo browser's cursor is its selection.
  public var selectionFollowsFocus = false
  /// Whether the header of the section at the top of the viewport stays at the top while
  /// its section scrolls under it, pushed up by the next section's header (UIKit's
  /// `pinToVisibleBounds`). Draw supplementary views after cells: a pinned header covers the
  /// items under it, and `indexPathForItem(atX:y:in: .viewport)` sees the header there.
  public var pinsSectionHeaders = false {
    didSet { needsLayout = true }
  }

  var motion = ScrollMotion()
  var content = SectionedContent.empty
  var needsReload = true
  var needsLayout = true
  let pool = ReusePool()
  /// Views on screen by element; `displayedStamp` marks those seen in the current pass.
  var displayed: [ElementID: DisplayedView] = [:]
  /// The elements on screen in the last pass, in y order, content coordinates.
  var onScreen: [LayoutElement] = []
  /// The presented offset `onScreen` was laid out at.
  var laidOutOffset = 0
  var scratch: [LayoutElement] = []
  var pass: UInt64 = 0
  var needsMeasure: Set<ElementID> = []
  var pendingTarget: ScrollTarget?
  /// Items announced with prefetchItemsAt and neither shown nor cancelled since.
  var prefetched: [Range<Int>] = []
  /// The prefetch window (minus the screen) of the last frame.
  var prefetchWindowItems: [Range<Int>] = []
  /// The item ranges the last prefetch update saw.
  var lastPrefetchQuery: (window: Range<Int>, visible: Range<Int>) = (0..<0, 0..<0)
  var lastVisibleItems: [Range<Int>] = []
  var identifiers: (any IdentifierSnapshot)?
  var registered: Set<ObjectIdentifier> = []
  var selection = ItemSelection()
  /// The section header drawn pinned in the last pass (its frame in `onScreen` is where it is
  /// drawn, not where the layout put it).
  var pinnedHeader: LayoutElement?

  /// A collection view with `layout` and a viewport of `width` × `height` units (negative
  /// sizes are 0). Nothing is asked of the data source before the first `layoutIfNeeded()`.
  public init(layout: any CollectionLayout, width: Int = 0, height: Int = 0) {
    self.layout = layout
    self.viewportWidth = max(0, width)
    self.viewportHeight = max(0, height)
  }

  // MARK: registration and dequeueing

  /// Declares a cell type. Optional — the type is its own identifier and the pool builds it
  /// with `init()` on first use — but it documents what a data source hands out.
  public func register<Cell: ReusableView>(_ type: Cell.Type) {
    registered.insert(ObjectIdentifier(type))
  }

  /// Declares a supplementary view type (see `register(_:)`).
  public func register<View: ReusableView>(
    _ type: View.Type, forSupplementaryViewOfKind kind: SupplementaryKind
  ) {
    registered.insert(ObjectIdentifier(type))
  }

  /// Whether `type` was registered.
  public func isRegistered<View: ReusableView>(_ type: View.Type) -> Bool {
    registered.contains(ObjectIdentifier(type))
  }

  /// A free cell of the type the call site expects (inferred from the return type), after
  /// its `prepareForReuse`, or a new one when none is free.
  public func dequeueReusableCell<Cell: ReusableView>(for indexPath: IndexPath) -> Cell {
    pool.dequeue(Cell.self).view
  }

  /// A free supplementary view of the expected type, or a new one.
  public func dequeueReusableSupplementaryView<View: ReusableView>(
    ofKind kind: SupplementaryKind, for indexPath: IndexPath
  ) -> View {
    pool.dequeue(View.self).view
  }

  /// Views created so far (all types), and reused.
  public var createdViewCount: Int { pool.totalCreated }
  /// Views handed out again from the pool so far.
  public var reusedViewCount: Int { pool.totalReused }
  /// Views of `type` created so far.
  public func createdCount<View: ReusableView>(of type: View.Type) -> Int {
    pool.createdCount(of: type)
  }
  /// Views of `type` waiting in the pool.
  public func freeCount<View: ReusableView>(of type: View.Type) -> Int {
    pool.freeCount(of: type)
  }

  /// The index path a cell shows, nil while it is off screen (in the pool). O(views on
  /// screen): asked rarely, so the engine keeps no reverse table to update every frame.
  public func indexPath(for cell: any ReusableView) -> IndexPath? {
    for (id, shown) in displayed where shown.view === cell {
      if case .item(let path) = id { return path }
    }
    return nil
  }

  /// The cell showing `indexPath`, nil when that item is not on screen.
  public func cellForItem(at indexPath: IndexPath) -> (any ReusableView)? {
    displayed[.item(indexPath)]?.view
  }

  // MARK: content

  /// Content as last loaded from the data source.
  public var numberOfSections: Int { content.sectionCount }
  /// Items in `section` as last loaded, 0 for a section that does not exist.
  public func numberOfItems(inSection section: Int) -> Int {
    section >= 0 && section < content.sectionCount ? content.itemCounts[section] : 0
  }

  /// Forgets everything shown and asks the data source again at the next layout pass.
  /// Item identity is lost: use `reloadData(identifiers:)` to enable batch updates.
  public func reloadData() {
    identifiers = nil
    needsReload = true
    needsLayout = true
  }

  /// The index path of the item with identifier `id`, when identifiers were given.
  /// O(1) after an O(n) index is built on first use after each change.
  public func indexPath<ID: Hashable>(forItemIdentifier id: ID) -> IndexPath? {
    guard let box = identifiers as? IdentifierSnapshotBox<ID> else { return nil }
    return box.indexPath(of: id)
  }

  func loadContentFromDataSource() -> SectionedContent {
    guard let dataSource else { return .empty }
    let sections = max(0, dataSource.numberOfSections(in: self))
    var counts: [Int] = []
    var headers: [Int] = []
    var footers: [Int] = []
    counts.reserveCapacity(sections)
    for section in 0..<sections {
      counts.append(dataSource.collectionView(self, numberOfItemsInSection: section))
      headers.append(
        dataSource.collectionView(
          self, heightForSupplementaryElementOfKind: .sectionHeader, inSection: section))
      footers.append(
        dataSource.collectionView(
          self, heightForSupplementaryElementOfKind: .sectionFooter, inSection: section))
    }
    return SectionedContent(
      itemCounts: counts, sectionHeaderHeights: headers, sectionFooterHeights: footers,
      collectionHeaderHeight: dataSource.collectionView(
        self, heightForSupplementaryElementOfKind: .collectionHeader, inSection: 0),
      collectionFooterHeight: dataSource.collectionView(
        self, heightForSupplementaryElementOfKind: .collectionFooter, inSection: 0))
  }

  /// Applies a pending `reloadData`: every view on screen goes back to the pool.
  func reloadIfNeeded() {
    guard needsReload else { return }
    needsReload = false
    recycleAll()
    prefetched = []
    prefetchWindowItems = []
    lastVisibleItems = []
    lastPrefetchQuery = (0..<0, 0..<0)
    content = loadContentFromDataSource()
    selection.reload(count: content.totalItems)
    pinnedHeader = nil
    layout.prepare(content, width: viewportWidth, reason: .reload)
    clampOffset()
  }

  // MARK: viewport and layout

  /// Resizes the viewport. A width change re-lays the content out (a grid recomputes its
  /// columns, measured list rows become estimates) keeping the top item where it was; a
  /// height-only change keeps every measurement.
  public func setViewport(width: Int, height: Int) {
    let width = max(0, width)
    let height = max(0, height)
    guard width != viewportWidth || height != viewportHeight else { return }
    let widthChanged = width != viewportWidth
    viewportWidth = width
    viewportHeight = height
    needsLayout = true
    guard widthChanged, !needsReload else {
      clampOffset()
      return
    }
    let anchor = topAnchor()
    layout.prepare(content, width: width, reason: .resize)
    // Views on screen stay, but their content may wrap differently at the new width.
    if layout.sizesViewsToFit { needsMeasure.formUnion(displayed.keys) }
    if let anchor { pendingTarget = anchor }
    resolvePendingTarget()
  }

  private func layoutDidChange() {
    needsLayout = true
    guard !needsReload else { return }
    let anchor = topAnchor()
    recycleAll()
    layout.prepare(content, width: viewportWidth, reason: .reload)
    if let anchor {
      pendingTarget = ScrollTarget(element: anchor.element, placement: .position(.top))
    }
    resolvePendingTarget()
  }

  /// The first element on screen and where its top is in the viewport.
  func topAnchor() -> ScrollTarget? {
    guard
      let first = onScreen.first(where: { if case .item = $0.id { true } else { false } })
        ?? onScreen.first(where: { $0.id != pinnedHeader?.id })
    else { return nil }
    return ScrollTarget(
      element: first.id, placement: .viewportY(Double(first.frame.y) - contentOffset))
  }

  /// The height of everything the layout placed.
  public var contentHeight: Int { layout.contentHeight }

  /// The largest offset: the end of the content at the bottom of the viewport.
  public var maximumOffset: Double { Double(max(0, layout.contentHeight - viewportHeight)) }

  var offsetBounds: ClosedRange<Double> { 0...maximumOffset }

  /// The whole-unit offset frames are presented at.
  public var presentedOffset: Int {
    Int(clamping: contentOffset, to: -(1 << 40)...(1 << 40))
  }

  /// The content band on screen.
  public var visibleBand: Range<Int> { presentedOffset..<(presentedOffset + viewportHeight) }

  func clampOffset() {
    let clamped = min(max(contentOffset, 0), maximumOffset)
    if clamped != contentOffset { setOffset(clamped) }
  }

  /// Moves the content offset, telling the delegate.
  func setOffset(_ offset: Double) {
    guard offset != contentOffset, offset.isFinite else { return }
    motion.noteMovement(offset - contentOffset)
    contentOffset = offset
    needsLayout = true
    delegate?.collectionViewDidScroll(self)
  }
}

/// A view on screen, the layout pass that last saw it and the one it came on screen in.
struct DisplayedView {
  var view: any ReusableView
  var stamp: UInt64
  var entered: UInt64
}

/// Where the app asked an element to be (or where the anchor keeps it).
struct ScrollTarget {
  enum Placement {
    case position(ScrollPosition)
    /// The element's top at this viewport y (fractional: an anchor keeps sub-unit offsets).
    case viewportY(Double)
  }
  var element: ElementID
  var placement: Placement
}

/// How far around the screen items are prefetched, in screen heights.
///
/// Defaults: 2 screens ahead of the scroll direction, 1 behind. A fast terminal fling moves
/// ~0.3 units/ms (a 40-row screen every ~130 ms); images from a local or nearby server take
/// ~50–200 ms to arrive and decode, i.e. up to ~1.5 screens at that speed, so 2 screens ahead
/// keeps requests started before their cells appear with some margin, and the window stays
/// small enough that cancellations (items falling out of it) keep the pipeline on what
/// matters. Behind, 1 screen covers a reversal; further back the memory cache answers.
/// Texture's 2.5/1.5 suit taller phone screens at higher point velocities.
public struct PrefetchWindow: Sendable, Equatable {
  /// Screen heights prefetched in the direction of scrolling.
  public var aheadScreens: Double
  /// Screen heights prefetched against it.
  public var behindScreens: Double

  /// A window of `aheadScreens` and `behindScreens` (negative values are 0).
  public init(aheadScreens: Double = 2, behindScreens: Double = 1) {
    self.aheadScreens = max(0, aheadScreens)
    self.behindScreens = max(0, behindScreens)
  }
}
