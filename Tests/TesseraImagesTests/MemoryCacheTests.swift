import Foundation
import Testing

@testable import TesseraImages

@Suite(.timeLimit(.minutes(1))) struct MemoryCacheTests {
  /// An image costing exactly `bytes` (a 1-pixel-high strip).
  private func image(cost bytes: Int) -> Image {
    // A test's own sizes are whole pixels: a mismatch is the test's bug.
    try! Image(
      width: bytes / 4, height: 1, pixels: [UInt8](repeating: 0, count: bytes),
      originalSize: PixelSize(width: bytes / 4, height: 1))
  }

  private func key(_ name: String) -> MemoryCacheKey {
    MemoryCacheKey(url: name, targetSize: nil, contentMode: .aspectFit)
  }

  /// A fraction that is not a number (or out of range) is clamped, not converted with a trap.
  @Test func anEntryFractionOutOfRangeIsClamped() {
    #expect(MemoryCache(costLimit: 1000, maxEntryFraction: .nan).entryCostLimit == 0)
    #expect(MemoryCache(costLimit: 1000, maxEntryFraction: .infinity).entryCostLimit == 1000)
    #expect(MemoryCache(costLimit: 1000, maxEntryFraction: -3).entryCostLimit == 0)
    #expect(MemoryCache(costLimit: .max, maxEntryFraction: 1).entryCostLimit == .max)
  }

  @Test func evictsLeastRecentlyUsedToHoldTheCostLimit() {
    let cache = MemoryCache(costLimit: 1000, countLimit: 100, maxEntryFraction: 0.5)
    cache.store(image(cost: 400), for: key("a"))
    cache.store(image(cost: 400), for: key("b"))
    #expect(cache.image(for: key("a")) != nil)  // a is now more recent than b
    cache.store(image(cost: 400), for: key("c"))
    #expect(cache.totalCost == 800)
    #expect(cache.contains(key("a")))
    #expect(!cache.contains(key("b")))
    #expect(cache.contains(key("c")))
    #expect(cache.statistics.evictions == 1)
  }

  @Test func anEntryOverTheFractionIsNotCached() {
    let cache = MemoryCache(costLimit: 1000, countLimit: 100, maxEntryFraction: 0.5)
    cache.store(image(cost: 400), for: key("a"))
    cache.store(image(cost: 600), for: key("big"))
    #expect(!cache.contains(key("big")))
    #expect(cache.contains(key("a")))
    #expect(cache.statistics.rejectedAsTooLarge == 1)
  }

  @Test func countLimitHolds() {
    let cache = MemoryCache(costLimit: 1 << 20, countLimit: 3)
    for index in 0..<10 { cache.store(image(cost: 4), for: key("\(index)")) }
    #expect(cache.count == 3)
    #expect((7..<10).allSatisfy { cache.contains(key("\($0)")) })
  }

  @Test func replacingAnEntryReplacesItsCost() {
    let cache = MemoryCache(costLimit: 1000, countLimit: 10)
    cache.store(image(cost: 40), for: key("a"))
    cache.store(image(cost: 80), for: key("a"))
    #expect(cache.totalCost == 80)
    #expect(cache.count == 1)
    cache.removeImage(for: key("a"))
    #expect(cache.totalCost == 0)
  }

  @Test func countsHitsAndMisses() {
    let cache = MemoryCache(costLimit: 1000)
    cache.store(image(cost: 4), for: key("a"))
    _ = cache.image(for: key("a"))
    _ = cache.image(for: key("b"))
    _ = cache.image(for: key("a"))
    #expect(cache.statistics.hits == 2)
    #expect(cache.statistics.misses == 1)
  }

  @Test func isSafeUnderConcurrentUse() async {
    let cache = MemoryCache(costLimit: 4000, countLimit: 1000)
    await withTaskGroup(of: Void.self) { group in
      for worker in 0..<8 {
        group.addTask {
          for index in 0..<500 {
            let name = "\((worker * 31 + index) % 97)"
            if index % 3 == 0 {
              cache.store(self.image(cost: 40), for: self.key(name))
            } else {
              _ = cache.image(for: self.key(name))
            }
          }
        }
      }
    }
    #expect(cache.totalCost <= 4000)
    #expect(cache.totalCost == cache.count * 40)
  }

  @Test func defaultLimitIsATenthOfMemoryWithinBounds() {
    let mebibyte: UInt64 = 1 << 20
    #expect(MemoryCache.defaultCostLimit(physicalMemory: 2_000 * mebibyte) == 200 << 20)
    #expect(MemoryCache.defaultCostLimit(physicalMemory: 4_000 * mebibyte) == 400 << 20)
    // A tenth below 32 MiB or above 512 MiB is held to the bound.
    #expect(MemoryCache.defaultCostLimit(physicalMemory: 100 * mebibyte) == 32 << 20)
    #expect(MemoryCache.defaultCostLimit(physicalMemory: 64 << 30) == 512 << 20)
    #expect(MemoryCache.defaultCostLimit(physicalMemory: .max) == 512 << 20)
    // And the default is that rule applied to this machine.
    #expect(
      MemoryCache.defaultCostLimit
        == MemoryCache.defaultCostLimit(physicalMemory: ProcessInfo.processInfo.physicalMemory))
    #expect(MemoryCache().costLimit == MemoryCache.defaultCostLimit)
  }

  @Test func pipelineKeepsTheMemoryCacheUnderItsLimit() async {
    let loader = HeldDataLoader { _ in .success(Fixtures.ok()) }
    // Each 32x24 thumbnail costs 3,072 bytes: the cache holds three.
    let memory = MemoryCache(costLimit: 10_000, countLimit: 100, maxEntryFraction: 0.5)
    let pipeline = makePipeline(loader, memory: memory)
    for index in 0..<6 {
      _ = try? await pipeline.image(for: Fixtures.request("\(index).png", size: 32))
    }
    #expect(memory.totalCost <= 10_000)
    #expect(memory.count == 3)
    #expect(memory.statistics.evictions == 3)
    #expect(pipeline.cachedImage(for: Fixtures.request("5.png", size: 32)) != nil)
    #expect(pipeline.cachedImage(for: Fixtures.request("0.png", size: 32)) == nil)
  }
}
