import Foundation

/// What the pipeline needs of a cache of decoded images: `MemoryCache`, or a test's or an
/// application's own (a cache shared by several pipelines, one that counts what it is asked).
/// Called from any thread: an implementation locks what it shares.
public protocol ImageCaching: AnyObject, Sendable {
  /// The image stored under `key`, nil for none.
  func image(for key: MemoryCacheKey) -> Image?
  /// Stores `image` under `key` (a cache may refuse or evict as it likes).
  func store(_ image: Image, for key: MemoryCacheKey)
  /// Forgets the image under `key`.
  func removeImage(for key: MemoryCacheKey)
  /// Forgets every image.
  func removeAll()
  /// Whether an image is stored under `key`, without counting a hit or a miss.
  func contains(_ key: MemoryCacheKey) -> Bool
}

/// What the pipeline needs of a cache of downloaded bytes with their HTTP freshness:
/// `DiskCache`, or another store (a test's dictionary, a shared backend). Called from the
/// pipeline's blocking threads, never the main actor.
public protocol DataCaching: AnyObject, Sendable {
  /// The bytes and metadata stored under `key`, nil for none (or a damaged entry).
  func entry(for key: String) -> DiskCacheEntry?
  /// Stores `data` with `metadata` under `key`; false when it was not stored.
  @discardableResult
  func store(_ data: Data, metadata: HTTPCacheMetadata, for key: String) -> Bool
  /// Forgets the entry under `key`.
  func removeEntry(for key: String)
  /// Forgets every entry.
  func removeAll()
  /// Whether an entry is stored under `key`.
  func contains(_ key: String) -> Bool
  /// The time freshness is judged at: the wall clock, or a test's.
  var currentDate: Date { get }
}

extension MemoryCache: ImageCaching {}
extension DiskCache: DataCaching {}
