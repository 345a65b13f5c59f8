import TesseraCollection
import TesseraImageBinding
import TesseraImages
import TesseraPhotoLibrary
import TesseraTerminal
import TesseraUtilities

/// The three layouts, named as the command line spells them (`L` goes to the next):
/// `GalleryScreen.LayoutMode`, at the top level so the command line can name it.
package enum GalleryLayoutMode: String, CaseIterable, CustomStringConvertible, Sendable {
  case grid
  case list
  case waterfall

  package var description: String { rawValue }
}

/// The gallery's one screen: a collection view over the feed, its cells bound to the image
/// pipeline, and what the terminal shows of it. Everything here runs on the main actor; the
/// pipeline and the feed do their work off it and come back with results.
///
/// Row 0 is the title bar, the last row the status bar; the collection view owns the rows
/// between. One unit of the collection engine is one terminal cell.
@MainActor
final class GalleryScreen {
  typealias LayoutMode = GalleryLayoutMode

  enum Overlay: Equatable {
    case none
    case help
    case detail(GalleryItem)
    /// The month index (`t`), its chosen row.
    case monthIndex(Int)
    /// The compare view (`c`); its photos are `compare`'s.
    case compare
  }

  let feed: GalleryFeed
  /// Cells' image slots bound to the pipeline, and prefetches by item id.
  let images: CollectionImageBinder<String>
  let collectionView: CollectionView
  /// The terminal's size, the layout and what a cell stands for. The layout, its columns and
  /// the size change through `setLayout`, `changeColumns` and `resize`, which lay out again.
  var geometry: ScreenGeometry
  /// The overlay over the grid and each mode's state; leaving the detail view drops its
  /// animation's frames (up to `AnimationDecoder.maxBytes`).
  var modes = GalleryModes() {
    didSet {
      if case .detail = modes.overlay {} else { detail.stopPlaying() }
      if modes.overlay != .compare { modes.compare.close() }
    }
  }
  /// The selected item (flat index into `feed.items`): the engine's focus, which batch
  /// updates keep on its photo. Setting it scrolls as little as shows it wholly.
  var selected: Int {
    get { collectionView.focusedIndexPath.flatMap(flatIndex(of:)) ?? 0 }
    set {
      guard let path = indexPath(ofFlat: newValue) else { return }
      try? collectionView.focusItem(at: path)
    }
  }
  /// What the run loop learnt of the terminal and the link to it, for what plays.
  var terminal = TerminalTraits()
  /// Set when anything on screen changed; the run loop draws and clears it (and, resting,
  /// is woken by `services.onNeedsDisplay`).
  var needsDisplay = true {
    didSet { if needsDisplay && !oldValue { services.onNeedsDisplay?() } }
  }
  /// The detail view's image slot and request.
  let detail = DetailOverlay()

  /// What the feed has told so far.
  var feedProgress = FeedProgress()
  /// What the status bar says beside the counts.
  var status = StatusLine()
  /// Marks, picks, exit paths, trashed batches.
  var choices = GalleryChoices()
  /// The terminal, opener, key-handler and Trash the screen acts on.
  var services = ScreenServices()

  var layoutMode: LayoutMode { geometry.layoutMode }
  var columns: Int { geometry.columns }
  var width: Int { geometry.width }
  var height: Int { geometry.height }
  /// The compare view's photos, slots and shared zoom (`modes.compare`).
  var compare: CompareOverlay { modes.compare }
  /// Bursts shown as stacks (`feedProgress.stacks`).
  var stacks: StackState {
    get { feedProgress.stacks }
    set { feedProgress.stacks = newValue }
  }
  /// The overlay over the grid (`modes.overlay`).
  var overlay: Overlay {
    get { modes.overlay }
    set { modes.overlay = newValue }
  }
  /// What the detail view asked the pipeline for: the photo at the box's pixel size.
  var detailRequest: ImageRequest? { detail.request }

  init(
    feed: GalleryFeed, pipeline: ImagePipeline, layout: LayoutMode, columns: Int,
    width: Int, height: Int, cellPixels: PixelSize, cellAspect: Double? = nil,
    tileShape: TileShape = .auto(decided: nil)
  ) {
    self.feed = feed
    images = CollectionImageBinder(pipeline: pipeline)
    geometry = ScreenGeometry(
      cellPixels: cellPixels,
      cellAspect: (cellAspect ?? Double(cellPixels.height) / Double(max(1, cellPixels.width)))
        .clamped(to: GalleryLimits.cellAspects, nan: 2),
      layoutMode: layout, columns: max(1, columns), tileShape: tileShape, width: width,
      height: height)
    collectionView = CollectionView(
      layout: Self.makeLayout(geometry),
      width: Self.collectionWidth(forScreenWidth: width),
      height: max(0, height - 2))
    collectionView.prefetchWindow = PrefetchWindow(aheadScreens: 2, behindScreens: 1)
    // A month's header stays over its photos while they scroll under it.
    collectionView.pinsSectionHeaders = true
    collectionView.register(TileCell.self)
    collectionView.register(RowCell.self)
    collectionView.register(SectionHeaderView.self, forSupplementaryViewOfKind: .sectionHeader)
    collectionView.dataSource = self
    collectionView.delegate = self
    loader.onSettled = { [weak self] in self?.needsDisplay = true }
    images.onPrefetchEnded = { [weak self] _, _ in self?.needsDisplay = true }
    detail.slot.onChange = { [weak self] _ in self?.needsDisplay = true }
    for slot in compare.slots { slot.onChange = { [weak self] _ in self?.needsDisplay = true } }
    feed.onChange = { [weak self] change in self?.feedChanged(change) }
    rebuildLayout()  // the waterfall's provider needs `self`
  }

  /// Loads in flight, loaded and failed, for the status bar.
  var loader: PipelineImageLoader { images.loader }

  // MARK: layout

  static func makeLayout(_ geometry: ScreenGeometry) -> any CollectionLayout {
    switch geometry.layoutMode {
    case .grid:
      // Pictures of the tile shape in the cells' real shape, and a caption's line under each.
      GridLayout(
        columns: .fixed(geometry.columns), spacing: 1,
        heightPerWidth: 1 / (geometry.tileShape.ratio * geometry.cellAspect), addedHeight: 1)
    case .list:
      ListLayout(estimatedItemHeight: 9)
    case .waterfall:
      WaterfallLayout(columns: geometry.columns, spacing: 1, defaultHeightPerWidth: 0.56)
    }
  }

  /// Decides the grid's `auto` tile shape from the first photos whose size is known, once.
  private func decideTileShapeIfNeeded() {
    guard case .auto(decided: nil) = geometry.tileShape else { return }
    // Only a prefix is looked at: while no size is known yet (a walk still reading headers),
    // every feed change would otherwise scan a 100,000-photo feed again.
    let ratios = feed.items.prefix(TileShape.lookedAt).lazy.compactMap { item in
      (self.feedProgress.knownHeightsPerWidth[item.id] ?? item.knownHeightPerWidth).map { 1 / $0 }
    }
    guard let decided = TileShape.mostCommon(ratios) else { return }
    geometry.tileShape = .auto(decided: decided)
    if layoutMode == .grid { rebuildLayout() }
  }

  /// Rows per column for an image of `heightPerWidth` (height ÷ width) in this terminal's cells;
  /// it is clamped to `GalleryLimits` first, whatever the feed or the header claimed.
  func cellHeightPerWidth(ofImage heightPerWidth: Double) -> Double {
    let bounded = heightPerWidth.clamped(
      to: GalleryLimits.imageHeightPerWidth, nan: GalleryLimits.unknownHeightPerWidth)
    return bounded / geometry.cellAspect
  }

  func setLayout(_ mode: LayoutMode) {
    guard mode != layoutMode else { return }
    geometry.layoutMode = mode
    rebuildLayout()
  }

  func changeColumns(by delta: Int) {
    let next = min(12, max(1, columns + delta))
    guard next != columns, layoutMode != .list else { return }
    geometry.columns = next
    rebuildLayout()
  }

  /// Replaces the layout; the collection view keeps the item at the top of the screen.
  /// The provider goes in before the layout is handed over: handing it over lays it out at
  /// once, and a waterfall laid out without its provider gives every tile the default shape.
  private func rebuildLayout() {
    let layout = Self.makeLayout(geometry)
    if let waterfall = layout as? WaterfallLayout {
      waterfall.heightPerWidthProvider = { [weak self] path in
        MainActor.assumeIsolated { self?.waterfallHeightPerWidth(forItem: path) }
      }
    }
    collectionView.layout = layout
    needsDisplay = true
  }

  /// The waterfall tile's height ÷ width: the image's shape in cells, plus the caption row.
  func waterfallHeightPerWidth(forItem path: IndexPath) -> Double? {
    guard let index = flatIndex(of: path) else { return nil }
    let item = feed.items[index]
    guard
      let heightPerWidth = feedProgress.knownHeightsPerWidth[item.id] ?? item.knownHeightPerWidth
    else {
      return nil
    }
    let columnWidth = max(
      1, (Self.collectionWidth(forScreenWidth: width) - (columns + 1)) / columns)
    return cellHeightPerWidth(ofImage: heightPerWidth) + 1 / Double(columnWidth)
  }

  /// The items' width on a screen `width` cells wide: all but the last column, which the
  /// position marker keeps (a scroll bar's place, so it never covers a tile).
  nonisolated static func collectionWidth(forScreenWidth width: Int) -> Int { max(1, width - 1) }

  func resize(width: Int, height: Int) {
    geometry.width = width
    geometry.height = height
    collectionView.setViewport(
      width: Self.collectionWidth(forScreenWidth: width), height: max(0, height - 2))
    needsDisplay = true
  }

  // MARK: feed

  func start() async {
    await feed.load()
  }

  func refresh() async {
    await feed.refresh()
  }

  private func feedChanged(_ change: GalleryFeed.FeedChange) {
    if !feed.state.isLoading { feedProgress.hasLoadedOnce = true }
    switch change {
    case .state:
      break
    case .factsChanged(let ids):
      decideTileShapeIfNeeded()
      reconfigureVisibleCells(of: ids)
      refreshShownItems(ids)
    case .replaced, .appended, .updated:
      var changed = Set<String>()
      if case .updated(let ids) = change { changed = ids }
      // A person who has not scrolled stays at the top while a walk inserts above: the top
      // of a camera roll is where the newest photos arrive.
      let wasAtTop = collectionView.contentOffset <= 0 && selected == 0
      do {
        try collectionView.performBatchUpdates(identifiers: sectionIdentifiers, reloading: changed)
      } catch {
        // Duplicate ids in a feed: show it as a reload rather than lose the feed.
        collectionView.reloadData()
      }
      decideTileShapeIfNeeded()
      if wasAtTop {
        collectionView.setContentOffset(0)
        selected = 0
      } else if collectionView.focusedIndexPath == nil, !feed.items.isEmpty {
        selected = 0  // the first items: the cursor starts on the first
      }
      if change == .replaced { retryFailedImages() }
      refreshShownItems(nil)
      feedProgress.announcedItems = 0..<0
    }
    if change != .state { restack() }
    needsDisplay = true
  }

  /// The detail view's photo, and the compare view's, as the feed now has them (their facts,
  /// a rating written): those of `ids`, or all when nil.
  private func refreshShownItems(_ ids: Set<String>?) {
    func fresh(_ item: GalleryItem) -> GalleryItem? {
      guard ids?.contains(item.id) ?? true,
        let fresh = feed.items.first(where: { $0.id == item.id }), fresh != item
      else { return nil }
      return fresh
    }
    if case .detail(let item) = overlay, let fresh = fresh(item) { overlay = .detail(fresh) }
    for (index, item) in compare.items.enumerated() {
      if let fresh = fresh(item) { compare.items[index] = fresh }
    }
  }

  /// Loads the next page when the screen nears the end of what is loaded.
  func loadMoreIfNeeded() {
    guard let lastPath = collectionView.indexPathsForVisibleItems.last,
      let last = flatIndex(of: lastPath)
    else { return }
    let state = feed.state
    guard state.hasMorePages, !state.isLoading, state.failure == nil,
      last >= feed.items.count - max(24, columns * 8)
    else { return }
    Task { await feed.loadNextPage() }
  }

  // MARK: per frame

  /// Advances scroll physics by `milliseconds` and lays out; true while anything moves.
  func tick(milliseconds: Double) -> Bool {
    let before = collectionView.presentedOffset
    collectionView.tick(by: milliseconds)
    collectionView.layoutIfNeeded()
    if collectionView.presentedOffset != before {
      needsDisplay = true
      collectionView.keepFocusOnScreen()
      loadMoreIfNeeded()
    }
    announceVisibleItems()
    if modes.slideshow.startsWithItems, !feed.items.isEmpty {
      modes.slideshow.startsWithItems = false
      startSlideshow(interval: modes.slideshow.interval)
    }
    return collectionView.scrollPhase != .idle
  }

  var isFlinging: Bool { collectionView.scrollPhase != .idle }
}
