import Testing

@testable import TesseraUtilities

@Suite struct LRUCacheTests {
  @Test func ordersByRecencyAndReusesSlots() {
    var list = LRUCache<String, Int>()
    list.insert(1, for: "a")
    list.insert(2, for: "b")
    list.insert(3, for: "c")
    _ = list.value(for: "a")
    #expect(list.keysOldestFirst == ["b", "c", "a"])
    #expect(list.removeOldest()?.key == "b")
    list.insert(4, for: "d")
    #expect(list.keysOldestFirst == ["c", "a", "d"])
    #expect(list.remove("a") == 1)
    #expect(list.keysOldestFirst == ["c", "d"])
    #expect(list.count == 2)
  }

  @Test func peekAndContainsLeaveTheOrderAlone() {
    var list = LRUCache<String, Int>()
    list.insert(1, for: "a")
    list.insert(2, for: "b")
    #expect(list.peek("a") == 1)
    #expect(list.contains("a"))
    #expect(!list.contains("z"))
    #expect(list.keysOldestFirst == ["a", "b"])
  }

  @Test func evictsLeastRecentlyUsedBeyondTheCostLimit() {
    var cache = LRUCache<String, Int>(costLimit: 30)
    cache.insert(1, for: "a", cost: 10)
    cache.insert(2, for: "b", cost: 10)
    cache.insert(3, for: "c", cost: 10)
    #expect(cache.value(for: "a") == 1)  // a becomes the newest
    let evicted = cache.insert(4, for: "d", cost: 10)
    #expect(evicted.map(\.key) == ["b"])
    #expect(evicted.map(\.value) == [2])
    #expect(cache.value(for: "b") == nil)
    #expect(cache.value(for: "a") == 1)
    #expect(cache.value(for: "c") == 3)
    #expect(cache.value(for: "d") == 4)
    #expect(cache.totalCost == 30)
  }

  @Test func evictsBeyondTheCountLimit() {
    var cache = LRUCache<Int, Int>(countLimit: 2)
    cache.insert(0, for: 0)
    cache.insert(1, for: 1)
    #expect(cache.insert(2, for: 2).map(\.key) == [0])
    #expect(cache.keysOldestFirst == [1, 2])
  }

  @Test func replacingAKeyUpdatesItsCostAndRecency() {
    var cache = LRUCache<Int, String>(costLimit: 100)
    cache.insert("x", for: 1, cost: 60)
    cache.insert("z", for: 2, cost: 10)
    cache.insert("y", for: 1, cost: 20)
    #expect(cache.count == 2)
    #expect(cache.totalCost == 30)
    #expect(cache.value(for: 1) == "y")
    #expect(cache.keysOldestFirst == [2, 1])
  }

  @Test func anEntryCostlierThanTheLimitIsKeptAloneNeverEvictedByItsOwnInsert() {
    var cache = LRUCache<Int, Int>(costLimit: 10)
    cache.insert(1, for: 1, cost: 4)
    cache.insert(2, for: 2, cost: 4)
    let evicted = cache.insert(3, for: 3, cost: 11)
    #expect(evicted.map(\.key) == [1, 2])
    #expect(cache.keysOldestFirst == [3])
    #expect(cache.totalCost == 11)
    // The next insert evicts it like any other oldest entry.
    #expect(cache.insert(4, for: 4, cost: 1).map(\.key) == [3])
    #expect(cache.totalCost == 1)
  }

  @Test func removeAndRemoveAllReturnTheCost() {
    var cache = LRUCache<Int, Int>(costLimit: 100)
    cache.insert(1, for: 1, cost: 7)
    cache.insert(2, for: 2, cost: 5)
    #expect(cache.remove(1) == 1)
    #expect(cache.remove(1) == nil)
    #expect(cache.totalCost == 5)
    cache.removeAll()
    #expect(cache.isEmpty)
    #expect(cache.totalCost == 0)
    #expect(cache.removeOldest() == nil)
    cache.insert(3, for: 3, cost: 2)
    #expect(cache.keysOldestFirst == [3])
  }

  @Test func negativeCostsAndLimitsCountAsZero() {
    var cache = LRUCache<Int, Int>(costLimit: -5, countLimit: -1)
    #expect(cache.costLimit == 0)
    #expect(cache.countLimit == 0)
    cache.insert(1, for: 1, cost: -3)
    #expect(cache.totalCost == 0)
  }

  @Test func reusesSlotsAfterManyEvictions() {
    var cache = LRUCache<Int, Int>(costLimit: 5)
    for key in 0..<1_000 { cache.insert(key, for: key, cost: 1) }
    #expect(cache.count == 5)
    #expect((995..<1_000).allSatisfy { cache.value(for: $0) == $0 })
    #expect(cache.value(for: 994) == nil)
  }

  /// Random operations against a plain array kept in recency order: the same entries, the same
  /// order, the same total and the same evictions after every step.
  @Test(arguments: [1, 2, 3] as [UInt64])
  func matchesAnArrayModel(seed: UInt64) {
    var random = SplitMix64(seed: seed)
    let costLimit = 40
    let countLimit = 6
    var cache = LRUCache<Int, Int>(costLimit: costLimit, countLimit: countLimit)
    var model: [(key: Int, value: Int, cost: Int)] = []  // oldest first
    for step in 0..<2_000 {
      let key = Int(random.next() % 12)
      switch random.next() % 4 {
      case 0, 1:
        let cost = Int(random.next() % 15)
        let evicted = cache.insert(step, for: key, cost: cost)
        model.removeAll { $0.key == key }
        model.append((key, step, cost))
        var expected: [Int] = []
        while model.count > 1,
          model.reduce(0, { $0 + $1.cost }) > costLimit || model.count > countLimit
        {
          expected.append(model.removeFirst().key)
        }
        #expect(evicted.map(\.key) == expected)
      case 2:
        let value = cache.value(for: key)
        if let index = model.firstIndex(where: { $0.key == key }) {
          #expect(value == model[index].value)
          model.append(model.remove(at: index))
        } else {
          #expect(value == nil)
        }
      default:
        #expect(cache.remove(key) == model.first { $0.key == key }?.value)
        model.removeAll { $0.key == key }
      }
      #expect(cache.keysOldestFirst == model.map(\.key))
      #expect(cache.totalCost == model.reduce(0) { $0 + $1.cost })
    }
  }
}
