import TesseraUtilities

/// The textbook fix's image manager: a dictionary cache keyed by URL that, when it holds more than
/// `limit` images, drops the entry at `startIndex` before adding one (so it holds at most
/// limit + 1); `downloadImageFromURL` answers a cached image through the main queue, and
/// otherwise downloads (every call its own download), caches the image on the download
/// thread and calls back through the main queue.
///
/// `startIndex` of a Swift dictionary is whichever entry hashes first, and Swift seeds its
/// hashes per process; the model evicts the entry with the smallest stable hash of its URL
/// instead: just as unrelated to recency, but the same in every run. O(limit) per eviction.
@MainActor
final class SeedImageManager {
  let session: ModelledSession
  private let context: StrategyContext
  private(set) var cache: [String: SimImage] = [:]
  private(set) var lookups = 0
  private(set) var hits = 0
  private var nextInstance = 0

  init(context: StrategyContext) {
    self.context = context
    session = ModelledSession(context: context)
  }

  func downloadImage(
    for item: Int, completion: @escaping @MainActor (SimImage?) -> Void
  ) throws(SimulationError) {
    let source = context.source(of: item)
    lookups += 1
    if let cached = cache[source.url] {
      hits += 1
      session.async { completion(cached) }
      return
    }
    try session.download(source) { [weak self] succeeded in
      guard let self else { return }
      guard succeeded else {
        self.session.async { completion(nil) }
        return
      }
      let image = self.makeImage(source)
      self.cacheImage(image, for: source.url)
      self.session.async { completion(image) }
    }
  }

  private func makeImage(_ source: PhotoSource) -> SimImage {
    nextInstance += 1
    return SimImage(
      item: source.item, instance: nextInstance, url: source.url, width: source.width,
      height: source.height)
  }

  private func cacheImage(_ image: SimImage, for url: String) {
    if cache.count > context.configuration.seedCacheLimit,
      let first = cache.keys.min(by: { StableHash.of($0) < StableHash.of($1) })
    {
      cache.removeValue(forKey: first)
    }
    cache[url] = image
  }
}
