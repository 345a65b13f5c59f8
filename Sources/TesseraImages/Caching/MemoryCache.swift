import Foundation
import TesseraUtilities

/// Decoded images kept in memory, least recently used evicted first, bounded by total cost
/// (bitmap bytes) and by count. Thread-safe; every operation is O(1) under one lock (eviction
/// is O(k) for the k entries it removes).
///
/// The default cost limit is 10% of physical memory, at least 32 MiB and at most 512 MiB.
/// Nuke takes 15% up to 768 MiB because an iOS app owns the foreground; a terminal program
/// shares the machine with the shell, the terminal and whatever the user runs next, and the
/// bitmaps it shows are small: a 256-pixel thumbnail is 256 KiB, so 512 MiB is ~2,000 of
/// them, several screens of scroll-back in each direction.
public final class MemoryCache: Sendable {
  /// Counters since creation.
  public struct Statistics: Sendable, Hashable {
    /// Lookups that found their image.
    public var hits = 0
    /// Lookups that did not.
    public var misses = 0
    /// Images removed to keep the limits.
    public var evictions = 0
    /// Images not stored because one alone costs more than `entryCostLimit`.
    public var rejectedAsTooLarge = 0
    /// Bitmap bytes held now.
    public var totalCost = 0
    /// Images held now.
    public var count = 0
  }

  private struct State {
    var entries: LRUCache<MemoryCacheKey, Image>
    var statistics = Statistics()
  }

  /// The most bitmap bytes kept.
  public let costLimit: Int
  /// The most images kept.
  public let countLimit: Int
  /// An image costing more than this is not cached: it would push out many others.
  public let entryCostLimit: Int
  private let state: Locked<State>

  /// - Parameters:
  ///   - costLimit: total bitmap bytes kept; defaults from physical memory (see the type).
  ///   - countLimit: entries kept.
  ///   - maxEntryFraction: the largest share of `costLimit` one image may take.
  public init(
    costLimit: Int = MemoryCache.defaultCostLimit, countLimit: Int = 20_000,
    maxEntryFraction: Double = 0.1
  ) {
    self.costLimit = max(0, costLimit)
    self.countLimit = max(0, countLimit)
    let fraction = maxEntryFraction.clamped(to: 0...1)  // NaN → 0: nothing that large is kept
    self.entryCostLimit = Int(
      clamping: Double(self.costLimit) * fraction, to: 0...self.costLimit)
    self.state = Locked(
      State(entries: LRUCache(costLimit: self.costLimit, countLimit: self.countLimit)))
  }

  /// 10% of physical memory, clamped to 32…512 MiB.
  public static var defaultCostLimit: Int {
    defaultCostLimit(physicalMemory: ProcessInfo.processInfo.physicalMemory)
  }

  /// 10% of `physicalMemory` bytes, clamped to 32…512 MiB.
  static func defaultCostLimit(physicalMemory: UInt64) -> Int {
    let tenth = physicalMemory / 10
    return Int(min(max(tenth, 32 << 20), 512 << 20))  // a UInt64 within 32…512 MiB
  }

  /// The image for `key` (a lookup, counted); setting nil removes it, setting an image
  /// stores it.
  public subscript(key: MemoryCacheKey) -> Image? {
    get { image(for: key) }
    set {
      if let newValue { store(newValue, for: key) } else { removeImage(for: key) }
    }
  }

  /// The image for `key`, which becomes the most recently used; counts a hit or a miss.
  public func image(for key: MemoryCacheKey) -> Image? {
    state.withLock { state in
      if let image = state.entries.value(for: key) {
        state.statistics.hits += 1
        return image
      }
      state.statistics.misses += 1
      return nil
    }
  }

  /// Stores `image` unless it costs more than `entryCostLimit`, then evicts the least
  /// recently used entries until both limits hold.
  public func store(_ image: Image, for key: MemoryCacheKey) {
    state.withLock { state in
      guard image.cost <= entryCostLimit, countLimit > 0 else {
        state.entries.remove(key)
        state.statistics.rejectedAsTooLarge += 1
        state.statistics.totalCost = state.entries.totalCost
        state.statistics.count = state.entries.count
        return
      }
      let evicted = state.entries.insert(image, for: key, cost: image.cost)
      state.statistics.evictions += evicted.count
      state.statistics.totalCost = state.entries.totalCost
      state.statistics.count = state.entries.count
    }
  }

  /// Removes the image for `key`, if cached.
  public func removeImage(for key: MemoryCacheKey) {
    state.withLock { state in
      state.entries.remove(key)
      state.statistics.totalCost = state.entries.totalCost
      state.statistics.count = state.entries.count
    }
  }

  /// Removes every image (the counters of hits and misses stay).
  public func removeAll() {
    state.withLock { state in
      state.entries.removeAll()
      state.statistics.totalCost = 0
      state.statistics.count = 0
    }
  }

  /// Whether `key` is cached, without counting a hit or changing recency.
  public func contains(_ key: MemoryCacheKey) -> Bool {
    state.withLock { $0.entries.contains(key) }
  }

  /// A snapshot of the counters.
  public var statistics: Statistics { state.withLock { $0.statistics } }
  /// Bitmap bytes held now.
  public var totalCost: Int { statistics.totalCost }
  /// Images held now.
  public var count: Int { statistics.count }
}
