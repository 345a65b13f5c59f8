import TesseraCollection

/// One way of getting images into cells, driven by the simulator frame by frame.
///
/// Per frame the simulator calls `deliver(upTo:)` (network events and the main queue), then
/// applies the user's input and lays out (the engine calls `configure`, `didEndDisplaying`,
/// `prefetch`… synchronously), then `settle()`, then samples what the cells show.
@MainActor
protocol LoadingStrategy: AnyObject {
  /// From `cellForItemAt`: load `item`'s image into `cell` (at `indexPath`).
  func configure(
    _ cell: SimCell, item: Int, at indexPath: IndexPath, in collectionView: CollectionView)
  /// The cell left the screen.
  func didEndDisplaying(_ cell: SimCell)
  func prefetch(_ items: [Int])
  func cancelPrefetching(_ items: [Int])
  /// Scrolling came to rest; `reconfigure` runs the data source's `cellForItemAt`.
  func scrollDidEnd(visible: [IndexPath], reconfigure: (IndexPath) -> Void)
  /// The feed is about to be reloaded with new items.
  func willRefresh()
  /// Lets the network run to `time`, reacting to each completion when it happens, then runs
  /// what waits for the main thread.
  func deliver(upTo time: Double) async throws(SimulationError)
  /// Waits for asynchronous work started this frame to reach the network (virtual time
  /// stands still meanwhile).
  func settle() async throws(SimulationError)
  /// Decoded bytes alive now: in the memory cache or held by any cell.
  func decodedBytesHeld(cells: [SimCell]) -> Int
  /// Image requests made for cells, and how many the memory cache answered.
  var requests: Int { get }
  var memoryHits: Int { get }
  /// Modelled main-thread milliseconds spent decoding `image`, the first time it is drawn.
  func mainThreadDecodeMilliseconds(firstDrawOf image: SimImage) -> Double
  var ledger: DownloadLedger { get }
}

/// What every strategy is given: the run's configuration, its photos and the image box.
@MainActor
struct StrategyContext {
  let configuration: SimulationConfiguration
  let library: SimulatedPhotoLibrary
  let box: ImageBox

  func source(of item: Int) -> PhotoSource { library.source(item: item, box: box) }
}
