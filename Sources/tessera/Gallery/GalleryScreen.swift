import TesseraCollection
import TesseraImageBinding
import TesseraImages
import TesseraTerminal
import TesseraUtilities

/// The gallery's one screen: a collection view over the feed, its cells bound to the image
/// pipeline, and what the terminal shows of it. Everything here runs on the main actor; the
/// pipeline and the feed do their work off it and come back with results.
///
/// Row 0 is the title bar, the last row the status bar; the collection view owns the rows
/// between. One unit of the collection engine is one terminal cell.
@MainActor
final class GalleryScreen {
  enum LayoutMode: Int, CaseIterable, CustomStringConvertible {
    case grid = 1
    case list = 2
    case waterfall = 3

    var description: String {
      switch self {
      case .grid: "grid"
      case .list: "list"
      case .waterfall: "waterfall"
      }
    }
  }

  enum Overlay: Equatable {
    case none
    case help
    case detail(GalleryItem)
  }

  let feed: GalleryFeed
  /// Cells' image slots bound to the pipeline, and prefetches by item id.
  let images: CollectionImageBinder<String>
  let collectionView: CollectionView
  /// Pixels one terminal cell stands for: 1×2 in half blocks, the font's cell otherwise.
  var cellPixels: PixelSize
  private(set) var layoutMode: LayoutMode
  private(set) var columns: Int
  private(set) var width: Int
  private(set) var height: Int
  var overlay: Overlay = .none
  /// The selected item (flat index into `feed.items`).
  var selected = 0
  /// Set when anything on screen changed; the run loop draws and clears it (and, resting,
  /// is woken by `onNeedsDisplay`).
  var needsDisplay = true {
    didSet { if needsDisplay && !oldValue { onNeedsDisplay?() } }
  }
  /// Called when `needsDisplay` turns true.
  var onNeedsDisplay: (@MainActor () -> Void)?
  /// Height / width of images that have arrived, by item id, so a layout switch or reload
  /// places them at once.
  var knownHeightsPerWidth: [String: Double] = [:]
  let detailSlot = ImageSlot<TesseraImages.Image>()
  var detailImageID: UInt64 = 0
  /// False until the first answer from the feed, so an empty screen says "loading".
  var feedHasLoadedOnce = false

  init(
    feed: GalleryFeed, pipeline: ImagePipeline, layout: LayoutMode, columns: Int,
    width: Int, height: Int, cellPixels: PixelSize
  ) {
    self.feed = feed
    images = CollectionImageBinder(pipeline: pipeline)
    layoutMode = layout
    self.columns = max(1, columns)
    self.width = width
    self.height = height
    self.cellPixels = cellPixels
    collectionView = CollectionView(
      layout: Self.makeLayout(layout, columns: max(1, columns)), width: width,
      height: max(0, height - 2))
    collectionView.prefetchWindow = PrefetchWindow(aheadScreens: 2, behindScreens: 1)
    collectionView.register(TileCell.self)
    collectionView.register(RowCell.self)
    collectionView.dataSource = self
    collectionView.delegate = self
    loader.onSettled = { [weak self] in self?.needsDisplay = true }
    detailSlot.onChange = { [weak self] _ in self?.needsDisplay = true }
    feed.onChange = { [weak self] change in self?.feedChanged(change) }
    installHeightPerWidthProvider()
  }

  /// Loads in flight, loaded and failed, for the status bar.
  var loader: PipelineImageLoader { images.loader }

  // MARK: layout

  static func makeLayout(_ mode: LayoutMode, columns: Int) -> any CollectionLayout {
    switch mode {
    case .grid:
      // Square images in half-block cells (a cell is twice as tall as wide) plus a caption.
      GridLayout(columns: .fixed(columns), spacing: 1, heightPerWidth: 0.56)
    case .list:
      ListLayout(estimatedItemHeight: 9)
    case .waterfall:
      WaterfallLayout(columns: columns, spacing: 1, defaultHeightPerWidth: 0.56)
    }
  }

  /// Rows per column for an image of `heightPerWidth` (height ÷ width) in this terminal's cells;
  /// it is clamped to `GalleryLimits` first, whatever the feed or the header claimed.
  func cellHeightPerWidth(ofImage heightPerWidth: Double) -> Double {
    let bounded = heightPerWidth.clamped(
      to: GalleryLimits.imageHeightPerWidth, nan: GalleryLimits.unknownHeightPerWidth)
    return bounded * Double(max(1, cellPixels.width)) / Double(max(1, cellPixels.height))
  }

  func setLayout(_ mode: LayoutMode) {
    guard mode != layoutMode else { return }
    layoutMode = mode
    rebuildLayout()
  }

  func changeColumns(by delta: Int) {
    let next = min(12, max(1, columns + delta))
    guard next != columns, layoutMode != .list else { return }
    columns = next
    rebuildLayout()
  }

  /// Replaces the layout; the collection view keeps the item at the top of the screen.
  private func rebuildLayout() {
    collectionView.layout = Self.makeLayout(layoutMode, columns: columns)
    installHeightPerWidthProvider()
    needsDisplay = true
  }

  private func installHeightPerWidthProvider() {
    guard let waterfall = collectionView.layout as? WaterfallLayout else { return }
    waterfall.heightPerWidthProvider = { [weak self] path in
      MainActor.assumeIsolated { self?.waterfallHeightPerWidth(forItem: path.item) }
    }
  }

  /// The waterfall tile's height ÷ width: the image's shape in cells, plus the caption row.
  func waterfallHeightPerWidth(forItem index: Int) -> Double? {
    guard feed.items.indices.contains(index) else { return nil }
    let item = feed.items[index]
    guard let heightPerWidth = knownHeightsPerWidth[item.id] ?? item.knownHeightPerWidth else {
      return nil
    }
    let columnWidth = max(1, (width - (columns + 1)) / columns)
    return cellHeightPerWidth(ofImage: heightPerWidth) + 1 / Double(columnWidth)
  }

  func resize(width: Int, height: Int) {
    self.width = width
    self.height = height
    collectionView.setViewport(width: width, height: max(0, height - 2))
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
    if !feed.state.isLoading { feedHasLoadedOnce = true }
    switch change {
    case .state:
      break
    case .replaced, .appended:
      let ids = feed.items.map(\.id)
      do {
        try collectionView.performBatchUpdates(identifiers: [ids])
      } catch {
        // Duplicate ids in a feed: show it as a reload rather than lose the feed.
        collectionView.reloadData()
      }
      selected = min(selected, max(0, feed.items.count - 1))
      if change == .replaced { retryFailedImages() }
    }
    needsDisplay = true
  }

  /// Loads the next page when the screen nears the end of what is loaded.
  func loadMoreIfNeeded() {
    guard let last = collectionView.indexPathsForVisibleItems.last?.item else { return }
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
      keepSelectionVisible()
      loadMoreIfNeeded()
    }
    return collectionView.scrollPhase != .idle
  }

  var isFlinging: Bool { collectionView.scrollPhase != .idle }
}
