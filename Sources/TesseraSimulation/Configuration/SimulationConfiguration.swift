import TesseraCollection

/// The three ways of loading images into reused cells that `tessera bench scroll` compares.
public enum StrategyKind: String, CaseIterable, Sendable, Codable {
  /// The classic reuse bug: the completion sets the image on the cell it captured,
  /// unconditionally; nothing is reset on reuse and nothing is cancelled, so a reused cell
  /// shows another row's picture.
  case naive
  /// The textbook fix for it: a placeholder on reuse, an index-path check at completion, a
  /// dictionary cache of 20 images, the visible rows re-requested at scroll end; no
  /// coalescing, no cancellation.
  case seed
  /// The full pipeline (coalescing, priorities, cancellation, memory cache, real decoding
  /// through libvips) bound through `ImageSlot`, with prefetching.
  case tessera
}

/// The collection's layout in a run.
public enum LayoutKind: String, CaseIterable, Sendable, Codable {
  /// Fixed columns of tiles, several images per row.
  case grid
  /// One self-sizing row per item with a thumbnail.
  case list
}

/// Everything one simulated run depends on. Two runs with equal configurations produce equal
/// results, to the last digit.
public struct SimulationConfiguration: Sendable {
  public var layout: LayoutKind
  /// Items in the feed before any refresh.
  public var items: Int
  /// Seeds the network (latencies, failures) and, through the script, the user.
  public var seed: UInt64
  public var script: [ScrollAction]
  public var network: NetworkModel
  /// The viewport in terminal cells.
  public var viewportWidth = 120
  public var viewportHeight = 40
  /// Pixels per terminal cell: sizes the image requests.
  public var cellPixelWidth = 8
  public var cellPixelHeight = 16
  /// The display's frame interval (60 Hz).
  public var frameMilliseconds = 1000.0 / 60
  public var gridColumns = 6
  /// Tile height ÷ width in cells.
  public var gridHeightPerWidth = 0.5
  /// List rows are `listRowHeights` units tall, varying per item (text of different lengths).
  public var listRowHeights: ClosedRange<Int> = 5...8
  /// How far ahead of and behind the screen items are prefetched (engine default: 2 and 1
  /// screens); only the `tessera` strategy prefetches.
  public var prefetchWindow = PrefetchWindow()
  /// The `tessera` memory cache's limit in decoded bytes (the app's default depends on the
  /// machine's memory; a run must not).
  public var memoryCacheBytes = 32 << 20
  /// The seed's dictionary cache: it evicts one entry whenever it holds more than this.
  public var seedCacheLimit = 20
  /// Modelled cost of decoding a full-size image on the main thread (`naive`, `seed`: UIImage
  /// decodes lazily, at first draw, at full size): milliseconds per megapixel.
  public var mainThreadDecodeMillisecondsPerMegapixel = 8.0
  /// The server's seed: which pictures and bytes ids map to.
  public var imageSeed: UInt64 = 1

  public init(
    layout: LayoutKind, items: Int = 10_000, seed: UInt64 = 1, script: [ScrollAction]? = nil,
    network: NetworkModel = .standard
  ) {
    self.layout = layout
    self.items = items
    self.seed = seed
    self.script = script ?? ScrollAction.standardScript(seed: seed)
    self.network = network
  }
}
