import TesseraCollection
import TesseraImages

/// Binds the image slots of a collection's cells to an `ImagePipeline` and prefetches the
/// images of the items the collection view announces, keyed by item identifier.
///
/// A data source keeps one binder and calls it from three places:
///
/// ```swift
/// // collectionView(_:cellForItemAt:)
/// images.bind(cell.slot, item: photo.id, request: request(for: photo, at: indexPath))
/// // collectionView(_:prefetchItemsAt:)
/// images.prefetchItems(at: indexPaths) { path in (photos[path.item].id, request(at: path)) }
/// // collectionView(_:cancelPrefetchingForItemsAt:)
/// images.cancelPrefetchingItems(at: indexPaths) { path in photos[path.item].id }
/// ```
///
/// Prefetches are remembered by the item's identifier, never by its index path: an insert or
/// delete above an item moves its index path between the announcement and the withdrawal,
/// and the identifier still names the same item (the collection view re-announces nothing
/// across a batch update, it only shifts what it announced). When a cell shows an item,
/// `bind` starts the cell's own request first — it joins the prefetch's download — and then
/// stops the prefetch, so nothing is downloaded twice and no prefetch outlives its purpose.
///
/// A late image never lands in a cell that moved on: the slot's generation token drops any
/// completion of a request it no longer waits for (see `ImageSlot`).
///
/// - Complexity: `bind` is O(1) plus the slot's work; prefetching and cancelling are O(1) per
///   index path. Memory: one entry per prefetch still running.
@MainActor
public final class CollectionImageBinder<ItemID: Hashable & Sendable> {
  /// The loader every bound slot uses; its counters say what is in flight, loaded, failed.
  public let loader: PipelineImageLoader
  /// The pipeline's prefetcher this binder drives (low priority by default, so what is on
  /// screen always goes first).
  public let prefetcher: ImagePrefetcher
  /// Called on the main actor when an item's prefetch ends by itself: with nil when its
  /// image is warm, with the error otherwise. Not called for prefetches this binder stopped.
  public var onPrefetchEnded: (@MainActor (ItemID, ImagePipelineError?) -> Void)?

  /// The request each running prefetch was started with, by item.
  private var prefetching: [ItemID: ImageRequest] = [:]
  /// The items prefetching each request (usually one; two items may show the same image).
  /// The pipeline's prefetcher runs a request once, so it is stopped only with its last item.
  private var holders: [ImageRequest: Set<ItemID>] = [:]
  private let relay: PrefetchRelay<ItemID>

  /// A binder over `pipeline` (by default the process's shared one). Prefetched images go to
  /// `destination` (decoded into the memory cache by default, the only destination that lets
  /// a cell show the image in the frame it appears) at `prefetchPriority`.
  public init(
    pipeline: ImagePipeline = .shared, destination: ImagePrefetcher.Destination = .memoryCache,
    prefetchPriority: ImageRequest.Priority = .low
  ) {
    let relay = PrefetchRelay<ItemID>()
    self.relay = relay
    loader = PipelineImageLoader(pipeline: pipeline)
    prefetcher = ImagePrefetcher(
      pipeline: pipeline, destination: destination, priority: prefetchPriority
    ) { request, error in
      Task { @MainActor in relay.binder?.prefetchEnded(request, error: error) }
    }
    relay.binder = self
  }

  // MARK: cells

  /// Shows `item`'s image in `slot`: a memory-cache hit at once (before this returns),
  /// otherwise the placeholder until the image arrives. Stops `item`'s prefetch after the
  /// slot's request has joined it. `onImage` runs when the image is applied, e.g. to tell
  /// the layout the image's shape.
  public func bind(
    _ slot: ImageSlot<TesseraImages.Image>, item: ItemID, request: ImageRequest,
    onImage: (@MainActor @Sendable (TesseraImages.Image) -> Void)? = nil
  ) {
    slot.bind(item: AnyHashable(item), request: request, loader: loader, onImage: onImage)
    stopPrefetching([item])
  }

  // MARK: prefetching

  /// Items whose prefetch is running.
  public var prefetchingItems: Set<ItemID> { Set(prefetching.keys) }

  /// How many items' prefetches are running. O(1).
  public var prefetchingItemCount: Int { prefetching.count }

  /// The request `item`'s running prefetch was started with, nil when none runs.
  public func prefetchRequest(for item: ItemID) -> ImageRequest? { prefetching[item] }

  /// For `collectionView(_:prefetchItemsAt:)`: prefetches each index path's item. `item`
  /// names the item at an index path and the request a cell there would make (nil skips the
  /// path, e.g. an item without an image).
  public func prefetchItems(
    at indexPaths: [IndexPath], item: (IndexPath) -> (id: ItemID, request: ImageRequest)?
  ) {
    startPrefetching(indexPaths.compactMap(item))
  }

  /// For `collectionView(_:cancelPrefetchingForItemsAt:)`: stops the prefetch of each index
  /// path's item, as it is named now. `identifier` names the item at an index path.
  public func cancelPrefetchingItems(
    at indexPaths: [IndexPath], identifier: (IndexPath) -> ItemID?
  ) {
    stopPrefetching(indexPaths.compactMap(identifier))
  }

  /// Prefetches each item's image. An item already prefetching with another request (its
  /// size changed) is stopped and started again with the new one.
  public func startPrefetching(_ items: [(id: ItemID, request: ImageRequest)]) {
    var started: [ImageRequest] = []
    var released: [ImageRequest] = []
    for (id, request) in items {
      if let running = prefetching[id] {
        if running == request { continue }
        prefetching[id] = nil
        if let unused = release(id, from: running) { released.append(unused) }
      }
      // Already decoded in memory: the pipeline's prefetcher would start nothing, and nothing
      // would ever end.
      if prefetcher.destination == .memoryCache,
        loader.pipeline.memoryCache?.contains(request.memoryCacheKey) == true
      {
        continue
      }
      prefetching[id] = request
      if holders[request, default: []].insert(id).inserted, holders[request]?.count == 1 {
        started.append(request)
      }
    }
    if !released.isEmpty { prefetcher.stopPrefetching(with: released) }
    if !started.isEmpty { prefetcher.startPrefetching(with: started) }
  }

  /// Stops these items' prefetches. Work a visible cell shares goes on.
  public func stopPrefetching(_ items: some Sequence<ItemID>) {
    var released: [ImageRequest] = []
    for id in items {
      guard let request = prefetching.removeValue(forKey: id) else { continue }
      if let unused = release(id, from: request) { released.append(unused) }
    }
    if !released.isEmpty { prefetcher.stopPrefetching(with: released) }
  }

  /// Stops every prefetch, e.g. when the collection reloads everything.
  public func stopPrefetching() {
    let requests = Array(holders.keys)
    prefetching.removeAll()
    holders.removeAll()
    if !requests.isEmpty { prefetcher.stopPrefetching(with: requests) }
  }

  /// Drops `id` from `request`'s holders; returns the request when nobody holds it any more.
  private func release(_ id: ItemID, from request: ImageRequest) -> ImageRequest? {
    holders[request]?.remove(id)
    guard holders[request]?.isEmpty ?? true else { return nil }
    holders.removeValue(forKey: request)
    return request
  }

  /// A prefetch ended by itself: forget it for every item that still waits on that request
  /// (an item that moved on to another request, or was stopped, is not touched). A
  /// completion that raced with a stop and a restart of the same request may end the
  /// restarted one's bookkeeping early; the restarted prefetch then simply runs to its end.
  private func prefetchEnded(_ request: ImageRequest, error: ImagePipelineError?) {
    if case .cancelled = error { return }
    guard let ended = holders.removeValue(forKey: request) else { return }
    for id in ended {
      prefetching.removeValue(forKey: id)
      onPrefetchEnded?(id, error)
    }
  }
}

/// Carries the prefetcher's completions (from any thread) back to the binder, which owns the
/// prefetcher and so cannot be captured by it strongly.
@MainActor
final class PrefetchRelay<ItemID: Hashable & Sendable> {
  weak var binder: CollectionImageBinder<ItemID>?
}
