import TesseraCollection

/// Runs one strategy through a configuration's script on the real collection engine, on a
/// virtual clock: frame after frame, the network runs to the frame's time, the user's input
/// is applied, physics tick, the engine lays out (cells recycled, dequeued, configured,
/// prefetch announced), asynchronous work settles, and what every visible cell shows is
/// recorded. No wall clock is read for any figure: equal configurations give equal results.
///
/// ```swift
/// let library = SimulatedPhotoLibrary()
/// let result = try await ScrollSimulator.run(
///   SimulationConfiguration(layout: .grid, items: 10_000, seed: 1), strategy: .seed,
///   library: library)
/// result.wrongFrames; result.figures
/// ```
///
/// Cost: O(frames × visible cells) for the engine and recording, plus, for `tessera`, one
/// real decode per image downloaded.
@MainActor
public enum ScrollSimulator {
  public static func run(
    _ configuration: SimulationConfiguration, strategy kind: StrategyKind,
    library: SimulatedPhotoLibrary
  ) async throws(SimulationError) -> SimulationResult {
    try validate(configuration)
    let frameMilliseconds = configuration.frameMilliseconds
    let frames = ScrollAction.frames(of: configuration.script, frameMilliseconds: frameMilliseconds)
    let newItems = ScrollAction.newItems(in: configuration.script)
    let ids = Array((newItems + 1)...(newItems + configuration.items))

    let layout = makeLayout(configuration)
    let context = StrategyContext(
      configuration: configuration, library: library, box: imageBox(configuration))
    let strategy: any LoadingStrategy =
      switch kind {
      case .naive: ModelledStrategy(kind: .naive, context: context)
      case .seed: ModelledStrategy(kind: .seed, context: context)
      case .tessera: TesseraStrategy(context: context)
      }
    let source = SimDataSource(
      ids: ids, strategy: strategy, rowHeights: configuration.listRowHeights)
    let view = CollectionView(
      layout: layout, width: configuration.viewportWidth, height: configuration.viewportHeight)
    view.prefetchWindow = configuration.prefetchWindow
    view.dataSource = source
    view.delegate = source

    var recorder = FrameRecorder()
    var peakDecoded = 0
    var mainThreadDecode = 0.0
    for (index, inputs) in frames.enumerated() {
      let time = Double(index) * frameMilliseconds
      try await strategy.deliver(upTo: time)
      for input in inputs {
        apply(input, to: view, source: source, strategy: strategy)
      }
      if index > 0 { view.tick(by: frameMilliseconds) }
      view.layoutIfNeeded()
      try await strategy.settle()

      var visible: [(item: Int, showing: Int?)] = []
      for cell in view.visibleCells {
        guard let simCell = cell.cell as? SimCell, source.ids.indices.contains(cell.indexPath.item)
        else { continue }
        let image = simCell.slot.image
        if let image {
          mainThreadDecode += strategy.mainThreadDecodeMilliseconds(firstDrawOf: image)
        }
        visible.append((source.ids[cell.indexPath.item], image?.item))
      }
      recorder.record(time: time, visible: visible)
      peakDecoded = max(peakDecoded, strategy.decodedBytesHeld(cells: source.cells))
    }
    recorder.finish(at: Double(frames.count) * frameMilliseconds)

    var result = SimulationResult(strategy: kind, layout: configuration.layout)
    result.frames = recorder.frames
    result.wrongFrames = recorder.wrongFrames
    result.wrongCellFrames = recorder.wrongCellFrames
    result.flashes = recorder.flashes
    result.displays = recorder.waits.count
    result.placeholderMedianMilliseconds = recorder.waitPercentile(0.5)
    result.placeholderP95Milliseconds = recorder.waitPercentile(0.95)
    result.waitingShare =
      recorder.cellFrames == 0
      ? 0 : Double(recorder.waitingCellFrames) / Double(recorder.cellFrames)
    let ledger = strategy.ledger
    result.downloadsStarted = ledger.started
    result.downloadsCompleted = ledger.completed
    result.downloadsFailed = ledger.failed
    result.downloadsCancelled = ledger.cancelled
    result.duplicateDownloads = ledger.duplicates
    result.bytesDownloaded = ledger.bytes
    result.bytesNeverShown = ledger.bytes(forItemsNotIn: recorder.shown)
    result.imageRequests = strategy.requests
    result.memoryHits = strategy.memoryHits
    result.peakDecodedBytes = peakDecoded
    result.mainThreadDecodeMilliseconds = mainThreadDecode
    result.cellsCreated = view.createdViewCount
    result.itemsShown = recorder.shown.count
    return result
  }

  private static func validate(_ configuration: SimulationConfiguration) throws(SimulationError) {
    guard configuration.items > 0 else { throw .invalidConfiguration("items must be at least 1") }
    guard configuration.frameMilliseconds > 0, configuration.frameMilliseconds.isFinite else {
      throw .invalidConfiguration("the frame interval must be a positive number of ms")
    }
    guard configuration.viewportWidth > 0, configuration.viewportHeight > 0,
      configuration.cellPixelWidth > 0, configuration.cellPixelHeight > 0
    else { throw .invalidConfiguration("the viewport and cell pixels must be positive") }
    guard configuration.gridColumns > 0, configuration.gridHeightPerWidth > 0,
      configuration.listRowHeights.lowerBound > 0
    else {
      throw .invalidConfiguration("grid columns, height per width and row heights must be positive")
    }
    guard configuration.script.count < 100_000 else {
      throw .invalidConfiguration("the script is too long")
    }
  }

  private static func makeLayout(_ configuration: SimulationConfiguration) -> any CollectionLayout {
    switch configuration.layout {
    case .grid:
      GridLayout(
        columns: .fixed(configuration.gridColumns), spacing: 1,
        heightPerWidth: configuration.gridHeightPerWidth)
    case .list:
      ListLayout(
        estimatedItemHeight: (configuration.listRowHeights.lowerBound
          + configuration.listRowHeights.upperBound) / 2)
    }
  }

  /// The pixel box images are requested at: a grid tile above its caption line, filled; a
  /// list thumbnail 16 cells wide, up to twice as tall, fitted (the gallery's sizes).
  static func imageBox(_ configuration: SimulationConfiguration) -> ImageBox {
    switch configuration.layout {
    case .grid:
      let probe = CollectionView(
        layout: makeLayout(configuration), width: configuration.viewportWidth,
        height: configuration.viewportHeight)
      let source = ProbeSource()
      probe.dataSource = source
      probe.layoutIfNeeded()
      let frame = probe.frameForItem(at: IndexPath(item: 0, section: 0))
      let width = max(1, frame?.width ?? 1) * configuration.cellPixelWidth
      let height = max(1, (frame?.height ?? 2) - 1) * configuration.cellPixelHeight
      return ImageBox(width: width, height: height, fills: true)
    case .list:
      let width = 16 * configuration.cellPixelWidth
      return ImageBox(width: width, height: 2 * width, fills: false)
    }
  }

  private static func apply(
    _ input: FrameInput, to view: CollectionView, source: SimDataSource,
    strategy: any LoadingStrategy
  ) {
    switch input {
    case .beginDrag: view.beginDrag()
    case .drag(let units): view.drag(by: units)
    case .endDrag(let velocity): view.endDrag(velocity: velocity)
    case .jump(let offset): view.setContentOffset(offset)
    case .refresh(let count):
      strategy.willRefresh()
      source.prependNewItems(count)
      view.reloadData()
    }
  }
}

/// One item, to read a layout's tile size before the run starts.
@MainActor
private final class ProbeSource: CollectionDataSource {
  final class Cell: ReusableView {
    init() {}
  }

  func collectionView(_ collectionView: CollectionView, numberOfItemsInSection section: Int) -> Int
  { 1 }

  func collectionView(
    _ collectionView: CollectionView, cellForItemAt indexPath: IndexPath
  )
    -> any ReusableView
  {
    let cell: Cell = collectionView.dequeueReusableCell(for: indexPath)
    return cell
  }
}
