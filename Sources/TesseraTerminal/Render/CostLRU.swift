/// A dictionary bounded by a total cost, evicting least recently used entries.
///
/// Lookups and inserts are O(1); when an insert exceeds the budget, entries are sorted by
/// last use once and evicted down to 3/4 of the budget, O(n log n) but amortised over the
/// many inserts between evictions.
struct CostLRU<Key: Hashable, Value> {
  private struct Entry {
    var value: Value
    var cost: Int
    var lastUse: UInt64
  }

  let budget: Int
  private var entries: [Key: Entry] = [:]
  private var clock: UInt64 = 0
  private(set) var totalCost = 0

  init(budget: Int) { self.budget = max(1, budget) }

  var count: Int { entries.count }

  mutating func value(for key: Key) -> Value? {
    guard var entry = entries[key] else { return nil }
    clock += 1
    entry.lastUse = clock
    entries[key] = entry
    return entry.value
  }

  func contains(_ key: Key) -> Bool { entries[key] != nil }

  /// Stores `value`; returns the keys evicted to make room (never `key` itself).
  @discardableResult
  mutating func insert(_ value: Value, for key: Key, cost: Int) -> [Key] {
    clock += 1
    if let old = entries[key] { totalCost -= old.cost }
    entries[key] = Entry(value: value, cost: cost, lastUse: clock)
    totalCost += cost
    guard totalCost > budget else { return [] }
    var evicted: [Key] = []
    let target = budget / 4 * 3
    for (candidate, entry) in entries.sorted(by: { $0.value.lastUse < $1.value.lastUse }) {
      if totalCost <= target { break }
      if candidate == key { continue }
      totalCost -= entry.cost
      entries[candidate] = nil
      evicted.append(candidate)
    }
    return evicted
  }

  @discardableResult
  mutating func remove(_ key: Key) -> Value? {
    guard let entry = entries.removeValue(forKey: key) else { return nil }
    totalCost -= entry.cost
    return entry.value
  }

  mutating func removeAll() {
    entries.removeAll()
    totalCost = 0
  }
}
