/// Keyed values with a cost each, ordered from least to most recently used and bounded by a
/// total cost and a count: the one LRU behind the image pipeline's memory cache, the server's
/// encoded images and the terminal's converted images and kitty uploads.
///
/// A doubly linked list threaded through an array of slots (freed slots are reused) plus a
/// dictionary from key to slot, so nothing is sorted and nothing is allocated per touch.
///
/// An insert never evicts the entry it inserts: it evicts the least recently used *other*
/// entries while either limit is exceeded, so an entry costlier than `costLimit` is kept alone
/// (the terminal must remember an upload it has sent). A caller that must not keep such an
/// entry checks its cost first, as the memory cache and the server do.
///
/// - Complexity: lookup, touch, insert, remove and removing the oldest entry are O(1)
///   (amortised, as the dictionary is); an insert that evicts k entries is O(k).
///   Memory is O(n).
package struct LRUCache<Key: Hashable, Value> {
  fileprivate struct Node {
    var key: Key
    var value: Value?
    var cost: Int
    var older: Int
    var newer: Int
  }

  /// The total cost above which inserts evict.
  package let costLimit: Int
  /// The entry count above which inserts evict.
  package let countLimit: Int
  /// The sum of the costs of the entries held.
  package private(set) var totalCost = 0

  private var nodes: [Node] = []
  private var slots: [Key: Int] = [:]
  private var freeSlots: [Int] = []
  private var oldest = -1
  private var newest = -1

  /// A cache bounded by `costLimit` (summed costs) and `countLimit` (entries); negative limits
  /// count as 0. Both default to unbounded.
  package init(costLimit: Int = .max, countLimit: Int = .max) {
    self.costLimit = max(0, costLimit)
    self.countLimit = max(0, countLimit)
  }

  package var count: Int { slots.count }
  package var isEmpty: Bool { slots.isEmpty }

  /// Whether `key` is held, without changing its recency. O(1).
  package func contains(_ key: Key) -> Bool { slots[key] != nil }

  /// The value for `key` without changing its recency. O(1).
  package func peek(_ key: Key) -> Value? {
    guard let slot = slots[key] else { return nil }
    return nodes[slot].value
  }

  /// The value for `key`, which becomes the most recently used. O(1).
  package mutating func value(for key: Key) -> Value? {
    guard let slot = slots[key] else { return nil }
    unlink(slot)
    linkAsNewest(slot)
    return nodes[slot].value
  }

  /// Stores `value` under `key` as the most recently used (replacing any older value and its
  /// cost; a negative cost counts as 0), then evicts the least recently used other entries
  /// while the total cost or the count is over its limit.
  ///
  /// - Returns: the entries evicted, oldest first (never `key`'s).
  /// - Complexity: O(1) plus O(1) per entry evicted.
  @discardableResult
  package mutating func insert(
    _ value: Value, for key: Key, cost: Int = 0
  ) -> [(
    key: Key, value: Value
  )] {
    let cost = max(0, cost)
    if let slot = slots[key] {
      totalCost -= nodes[slot].cost
      nodes[slot].value = value
      nodes[slot].cost = cost
      unlink(slot)
      linkAsNewest(slot)
    } else {
      let node = Node(key: key, value: value, cost: cost, older: -1, newer: -1)
      let slot: Int
      if let free = freeSlots.popLast() {
        nodes[free] = node
        slot = free
      } else {
        nodes.append(node)
        slot = nodes.count - 1
      }
      slots[key] = slot
      linkAsNewest(slot)
    }
    totalCost += cost
    var evicted: [(key: Key, value: Value)] = []
    while totalCost > costLimit || count > countLimit, oldest != newest,
      let entry = removeOldest()
    {
      evicted.append(entry)
    }
    return evicted
  }

  /// Removes `key`'s entry; returns its value. O(1).
  @discardableResult
  package mutating func remove(_ key: Key) -> Value? {
    guard let slot = slots.removeValue(forKey: key) else { return nil }
    return release(slot)
  }

  /// Removes and returns the least recently used entry. O(1).
  package mutating func removeOldest() -> (key: Key, value: Value)? {
    guard oldest >= 0 else { return nil }
    let slot = oldest
    let key = nodes[slot].key
    slots.removeValue(forKey: key)
    guard let value = release(slot) else { return nil }
    return (key, value)
  }

  /// Removes every entry. O(n).
  package mutating func removeAll() {
    nodes.removeAll()
    slots.removeAll()
    freeSlots.removeAll()
    oldest = -1
    newest = -1
    totalCost = 0
  }

  /// Keys from least to most recently used. O(n).
  package var keysOldestFirst: [Key] {
    var keys: [Key] = []
    keys.reserveCapacity(count)
    var slot = oldest
    while slot >= 0 {
      keys.append(nodes[slot].key)
      slot = nodes[slot].newer
    }
    return keys
  }

  private mutating func release(_ slot: Int) -> Value? {
    unlink(slot)
    let value = nodes[slot].value
    totalCost -= nodes[slot].cost
    nodes[slot].value = nil
    nodes[slot].cost = 0
    freeSlots.append(slot)
    return value
  }

  private mutating func unlink(_ slot: Int) {
    let older = nodes[slot].older
    let newer = nodes[slot].newer
    if older >= 0 { nodes[older].newer = newer } else { oldest = newer }
    if newer >= 0 { nodes[newer].older = older } else { newest = older }
    nodes[slot].older = -1
    nodes[slot].newer = -1
  }

  private mutating func linkAsNewest(_ slot: Int) {
    nodes[slot].older = newest
    nodes[slot].newer = -1
    if newest >= 0 { nodes[newest].newer = slot } else { oldest = slot }
    newest = slot
  }
}

extension LRUCache: Sendable where Key: Sendable, Value: Sendable {}
extension LRUCache.Node: Sendable where Key: Sendable, Value: Sendable {}
