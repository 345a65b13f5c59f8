import Foundation

extension ImagePipeline {
  /// The pipeline's caches, by request: what a request would find, and a way to put an
  /// image there (one made elsewhere) or take it out.
  ///
  /// ```swift
  /// pipeline.cache[request] = thumbnail        // the memory cache, under the request's key
  /// let bytes = pipeline.cache.data(for: request)  // the disk cache's bytes
  /// pipeline.cache.remove(request)             // from both
  /// ```
  public struct Cache: Sendable {
    let pipeline: ImagePipeline

    /// The decoded image the memory cache holds for `request` (its image id or URL, size,
    /// fit and processors). Setting stores one; setting nil removes it. O(1).
    public subscript(request: ImageRequest) -> Image? {
      get { pipeline.memoryCache?.image(for: request.memoryCacheKey) }
      nonmutating set {
        if let newValue {
          pipeline.memoryCache?.store(newValue, for: request.memoryCacheKey)
        } else {
          pipeline.memoryCache?.removeImage(for: request.memoryCacheKey)
        }
      }
    }

    /// The bytes the disk cache holds for `request` (by its image id or URL), fresh or not.
    /// Blocking: reads a file.
    public func data(for request: ImageRequest) -> Data? {
      pipeline.diskCache?.entry(for: request.diskKey)?.data
    }

    /// Stores `data` for `request` in the disk cache, fresh for `lifetime` seconds (at most
    /// `ImageLimits.maxFreshnessLifetime`, an hour); false when there is no disk cache or it
    /// refused. Blocking: writes a file.
    @discardableResult
    public func storeData(
      _ data: Data, for request: ImageRequest, lifetime: TimeInterval = 3_600
    )
      -> Bool
    {
      guard let disk = pipeline.diskCache else { return false }
      let now = disk.currentDate
      let seconds = lifetime.clamped(to: 0...ImageLimits.maxFreshnessLifetime, nan: 0)
      let metadata = HTTPCacheMetadata(storedAt: now, freshUntil: now + seconds)
      return disk.store(data, metadata: metadata, for: request.diskKey)
    }

    /// Takes `request`'s image out of the memory cache and its bytes out of the disk cache:
    /// the next load fetches it again.
    public func remove(_ request: ImageRequest) {
      pipeline.memoryCache?.removeImage(for: request.memoryCacheKey)
      pipeline.diskCache?.removeEntry(for: request.diskKey)
    }

    /// Empties both caches.
    public func removeAll() {
      pipeline.memoryCache?.removeAll()
      pipeline.diskCache?.removeAll()
    }
  }

  /// The pipeline's caches, by request.
  public var cache: Cache { Cache(pipeline: self) }
}
