import Testing

@testable import TesseraServer

@Suite(.timeLimit(.minutes(1))) struct LRUCacheTests {
  @Test func evictsLeastRecentlyUsedBeyondCapacity() {
    var cache = LRUCache<String, Int>(capacity: 30)
    cache.insert(1, for: "a", cost: 10)
    cache.insert(2, for: "b", cost: 10)
    cache.insert(3, for: "c", cost: 10)
    #expect(cache.value(for: "a") == 1)  // a becomes the newest
    cache.insert(4, for: "d", cost: 10)  // evicts b
    #expect(cache.value(for: "b") == nil)
    #expect(cache.value(for: "a") == 1)
    #expect(cache.value(for: "c") == 3)
    #expect(cache.value(for: "d") == 4)
    #expect(cache.totalCost == 30)
  }

  @Test func replacingAKeyUpdatesItsCost() {
    var cache = LRUCache<Int, String>(capacity: 100)
    cache.insert("x", for: 1, cost: 60)
    cache.insert("y", for: 1, cost: 20)
    #expect(cache.count == 1)
    #expect(cache.totalCost == 20)
    #expect(cache.value(for: 1) == "y")
  }

  @Test func refusesValuesLargerThanEverything() {
    var cache = LRUCache<Int, Int>(capacity: 10)
    cache.insert(1, for: 1, cost: 5)
    cache.insert(2, for: 2, cost: 11)
    #expect(cache.value(for: 2) == nil)
    #expect(cache.value(for: 1) == 1)
  }

  @Test func reusesSlotsAfterManyEvictions() {
    var cache = LRUCache<Int, Int>(capacity: 5)
    for key in 0..<1_000 { cache.insert(key, for: key, cost: 1) }
    #expect(cache.count == 5)
    #expect((995..<1_000).allSatisfy { cache.value(for: $0) == $0 })
    #expect(cache.value(for: 994) == nil)
  }
}
