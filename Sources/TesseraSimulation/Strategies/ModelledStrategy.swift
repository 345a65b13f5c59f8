import TesseraCollection

/// `naive` and `seed`: the seeds' code on the modelled URLSession, main queue and
/// `ImageManager` (they have no pipeline, so decoding and caching are modelled: an image is
/// decoded at full size on the main thread the first time it is drawn, as UIImage does, and
/// its bitmap lives as long as the cache or a cell holds it).
@MainActor
final class ModelledStrategy: LoadingStrategy {
  /// The two strategies without a pipeline.
  enum Kind {
    case naive
    case seed
  }

  let kind: Kind
  private let context: StrategyContext
  private let manager: SeedImageManager
  /// A failure to generate an image inside a callback, reported at the next `deliver`.
  private var pendingError: SimulationError?

  init(kind: Kind, context: StrategyContext) {
    self.kind = kind
    self.context = context
    manager = SeedImageManager(context: context)
  }

  func configure(
    _ cell: SimCell, item: Int, at indexPath: IndexPath, in collectionView: CollectionView
  ) {
    switch kind {
    case .naive:
      // The reuse bug: whatever the cell showed stays until a completion lands, and a
      // completion lands on the cell it captured, whatever that cell shows by then.
      request(item) { image in
        if let image { cell.slot.setImageUnchecked(image) }
      }
    case .seed:
      // updateImageForCell: placeholder first, then the index-path check at completion.
      cell.slot.setImageUnchecked(nil)
      request(item) { [weak collectionView] image in
        guard let image, let collectionView,
          collectionView.indexPath(for: cell)?.item == indexPath.item
        else { return }
        cell.slot.setImageUnchecked(image)
      }
    }
  }

  private func request(_ item: Int, completion: @escaping @MainActor (SimImage?) -> Void) {
    do {
      try manager.downloadImage(for: item, completion: completion)
    } catch {
      pendingError = pendingError ?? error
    }
  }

  func didEndDisplaying(_ cell: SimCell) {}
  func prefetch(_ items: [Int]) {}
  func cancelPrefetching(_ items: [Int]) {}
  func willRefresh() {}

  /// The textbook fix's "load the on-screen rows" at scrollViewDidEndDecelerating (and at
  /// didEndDragging without deceleration): `cellForRowAtIndexPath` for every visible row.
  /// That dequeues a fresh cell, off screen, so its index-path check never passes: the
  /// effect is to request every visible image again (cache hits, or new downloads).
  func scrollDidEnd(visible: [IndexPath], reconfigure: (IndexPath) -> Void) {
    guard kind == .seed else { return }
    for path in visible { reconfigure(path) }
  }

  func deliver(upTo time: Double) async throws(SimulationError) {
    try manager.session.run(upTo: time)
    if let error = pendingError { throw error }
  }

  func settle() async throws(SimulationError) {
    if let error = pendingError { throw error }
  }

  func decodedBytesHeld(cells: [SimCell]) -> Int {
    var alive: [Int: Int] = [:]
    for image in manager.cache.values where drawn.contains(image.instance) {
      alive[image.instance] = image.decodedBytes
    }
    for cell in cells {
      if let image = cell.slot.image, drawn.contains(image.instance) {
        alive[image.instance] = image.decodedBytes
      }
    }
    return alive.values.reduce(0, +)
  }

  private var drawn: Set<Int> = []

  func mainThreadDecodeMilliseconds(firstDrawOf image: SimImage) -> Double {
    guard drawn.insert(image.instance).inserted else { return 0 }
    return Double(image.width * image.height) / 1e6
      * context.configuration.mainThreadDecodeMillisecondsPerMegapixel
  }

  var requests: Int { manager.lookups }
  var memoryHits: Int { manager.hits }
  var ledger: DownloadLedger { manager.session.network.ledger }
}
