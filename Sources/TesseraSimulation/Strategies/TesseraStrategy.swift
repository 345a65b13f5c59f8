import Foundation
import TesseraCollection
import TesseraImages

/// An image request of the simulation: the item it is for, and the pipeline's request.
struct SimRequest: Sendable {
  let item: Int
  let request: ImageRequest
}

/// `tessera`: the real `ImagePipeline` (coalescing, priorities, six connections,
/// cancellation, a memory cache, libvips decoding at the box's size) bound to cells through
/// `ImageSlot`, with the engine's prefetching through `ImagePrefetcher` — wired like the
/// gallery. Its data loader is held on the virtual clock; after each answer (one at a time,
/// so decodes finish in a fixed order) and after each frame's layout, the simulator waits
/// for the pipeline to settle: every download it started has reached the loader, every
/// answer has been processed, every decode has finished and every completion owed has been
/// delivered. So no figure depends on thread timing.
@MainActor
final class TesseraStrategy: LoadingStrategy, ImageLoading {
  typealias Image = SimImage
  typealias Request = SimRequest

  private let context: StrategyContext
  private let loader = VirtualDataLoader()
  private let inbox = CompletionInbox()
  private let pipeline: ImagePipeline
  private let memory: MemoryCache
  private let prefetcher: ImagePrefetcher
  private var network: SimulatedNetwork
  private var transfersByCall: [Int: Int] = [:]
  private var callsByTransfer: [Int: (index: Int, source: PhotoSource)] = [:]
  private var sequence = 0
  private var answered = 0
  private var answeredWithImage = 0
  private(set) var requests = 0
  private(set) var memoryHits = 0

  init(context: StrategyContext) {
    self.context = context
    let configuration = context.configuration
    memory = MemoryCache(costLimit: configuration.memoryCacheBytes)
    // The network is simulated on a virtual clock: the pipeline's wall-clock deadline must
    // never end a transfer (the longest one allowed, an hour).
    pipeline = ImagePipeline(
      configuration: .init(
        dataLoader: loader, memoryCache: memory, diskCache: nil,
        maxConcurrentDownloads: configuration.network.connectionsPerHost,
        maxConcurrentDecodes: 2, requestTimeout: 3_600))
    let inbox = inbox
    prefetcher = ImagePrefetcher(pipeline: pipeline) { _, _ in inbox.countPrefetchCompletion() }
    network = SimulatedNetwork(model: configuration.network, seed: configuration.seed)
  }

  // MARK: cells

  func configure(
    _ cell: SimCell, item: Int, at indexPath: TesseraCollection.IndexPath,
    in collectionView: CollectionView
  ) {
    cell.resetsSlotOnReuse = true
    let request = request(for: item, priority: .high)
    cell.slot.bind(item: item, request: request, loader: self)
    // The cell's own request has joined the prefetch's work (it is first, so the shared
    // download goes on): the prefetch is done. Kept, it would keep downloading, at low
    // priority, every item a fling shows for a frame (the engine never withdraws an item it
    // showed).
    prefetcher.stopPrefetching(with: [request.request])
  }

  func didEndDisplaying(_ cell: SimCell) {
    // As the gallery does: a cell that left stops waiting; shared work goes on only while
    // the prefetcher (or another cell) still wants it.
    cell.slot.cancel()
  }

  func prefetch(_ items: [Int]) {
    prefetcher.startPrefetching(with: items.map { request(for: $0, priority: .low).request })
  }

  func cancelPrefetching(_ items: [Int]) {
    prefetcher.stopPrefetching(with: items.map { request(for: $0, priority: .low).request })
  }

  func willRefresh() { prefetcher.stopPrefetching() }

  func scrollDidEnd(
    visible: [TesseraCollection.IndexPath], reconfigure: (TesseraCollection.IndexPath) -> Void
  ) {}

  private func request(for item: Int, priority: ImageRequest.Priority) -> SimRequest {
    let source = context.source(of: item)
    sourcesByURL[source.url] = source
    let url = URL(string: source.url) ?? URL(fileURLWithPath: "/")
    return SimRequest(
      item: item,
      request: ImageRequest(
        url: url, targetSize: PixelSize(width: context.box.width, height: context.box.height),
        contentMode: context.box.fills ? .aspectFill : .aspectFit, priority: priority))
  }

  // MARK: ImageLoading

  func cachedImage(for request: SimRequest) -> SimImage? {
    requests += 1
    guard let image = pipeline.cachedImage(for: request.request) else { return nil }
    memoryHits += 1
    return simImage(image, for: request)
  }

  func loadImage(
    for request: SimRequest,
    completion: @escaping @MainActor @Sendable (Result<SimImage, any Error>) -> Void
  ) -> ImageLoadCancellation {
    sequence += 1
    let number = sequence
    let inbox = inbox
    let url = request.request.url.absoluteString
    let item = request.item
    let task = pipeline.startImageTask(with: request.request) { result in
      let mapped = result.map {
        SimImage(item: item, instance: 0, url: url, width: $0.width, height: $0.height)
      }
      inbox.deliver((number, mapped.mapError { $0 }, completion))
    }
    return ImageLoadCancellation { task.cancel() }
  }

  private func simImage(_ image: TesseraImages.Image, for request: SimRequest) -> SimImage {
    SimImage(
      item: request.item, instance: 0, url: request.request.url.absoluteString,
      width: image.width, height: image.height)
  }

  // MARK: time

  func deliver(upTo time: Double) async throws(SimulationError) {
    while let completion = network.nextCompletion(upTo: time) {
      guard let call = callsByTransfer.removeValue(forKey: completion.id) else { continue }
      transfersByCall.removeValue(forKey: call.index)
      answered += 1
      if completion.succeeded {
        let encoded = try context.library.bytes(for: call.source)
        answeredWithImage += 1
        loader.release(
          call.index,
          with: .success(
            DataResponse(
              statusCode: 200, headers: ["content-type": encoded.contentType],
              data: Data(encoded.bytes))))
      } else {
        loader.release(call.index, with: .failure(.networkFailed("simulated connection failure")))
      }
      try await settle()
    }
  }

  /// Waits until the pipeline is idle but for downloads held in the loader, then starts the
  /// new downloads on the virtual network (now), stops the cancelled ones, and applies the
  /// completions delivered, in the order their loads started.
  func settle() async throws(SimulationError) {
    let deadline = ContinuousClock.now + .seconds(60)
    var spins = 0
    while true {
      loader.answerCancellations()
      if isSettled() { break }
      spins += 1
      if spins < 64 {
        await Task.yield()
      } else {
        try? await Task.sleep(for: .microseconds(50))
      }
      if ContinuousClock.now > deadline {
        throw .pipelineDidNotSettle(String(describing: pipeline.statistics))
      }
    }
    let news = loader.takeNews()
    // The order calls reached the loader in can vary; the order transfers start in must not.
    // Calls for one URL in one settle: all but the last were cancelled already (the pipeline
    // downloads a URL once at a time), so they go first and the live one is always the
    // URL's latest attempt.
    let cancelled = Set(news.cancelled)
    let calls: [(index: Int, source: PhotoSource, live: Int)] = news.calls.map {
      ($0.index, sourceOf($0.url), cancelled.contains($0.index) ? 0 : 1)
    }
    let ordered = calls.sorted { ($0.source.url, $0.live) < ($1.source.url, $1.live) }
    for call in ordered {
      let size = try context.library.bytes(for: call.source).bytes.count
      let id = network.start(url: call.source.url, item: call.source.item, bytes: size)
      transfersByCall[call.index] = id
      callsByTransfer[id] = (call.index, call.source)
    }
    for index in news.cancelled.sorted() {
      guard let id = transfersByCall.removeValue(forKey: index) else { continue }
      callsByTransfer.removeValue(forKey: id)
      network.cancel(id)
    }
    inbox.drain()
  }

  /// Counters read loader-first, pipeline second: both only grow, so equality means nothing
  /// counted by the pipeline is still on its way to the loader or to a completion handler.
  private func isSettled() -> Bool {
    let calls = loader.callCount
    let received = inbox.received
    let statistics = pipeline.statistics
    return calls == statistics.downloadsStarted
      && statistics.downloadsFinished + statistics.downloadsFailed
        == answered + statistics.downloadsCancelled
      && statistics.decodes + statistics.decodeFailures == answeredWithImage
      && received == statistics.tasksCompleted
  }

  private func sourceOf(_ url: URL) -> PhotoSource {
    let text = url.absoluteString
    if let known = sourcesByURL[text] { return known }
    return PhotoSource(item: 0, url: text, size: "", width: 0, height: 0)
  }

  private var sourcesByURL: [String: PhotoSource] = [:]

  // MARK: figures

  func decodedBytesHeld(cells: [SimCell]) -> Int {
    var outside: [String: Int] = [:]
    for cell in cells {
      guard let image = cell.slot.image, outside[image.url] == nil else { continue }
      let key = MemoryCacheKey(
        url: image.url, targetSize: PixelSize(width: context.box.width, height: context.box.height),
        contentMode: context.box.fills ? .aspectFill : .aspectFit)
      if !memory.contains(key) { outside[image.url] = image.decodedBytes }
    }
    return memory.totalCost + outside.values.reduce(0, +)
  }

  func mainThreadDecodeMilliseconds(firstDrawOf image: SimImage) -> Double { 0 }

  var ledger: DownloadLedger { network.ledger }
}
