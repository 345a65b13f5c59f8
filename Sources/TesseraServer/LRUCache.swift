/// A least-recently-used cache bounded by a total cost (bytes).
///
/// A dictionary of nodes threaded on an intrusive doubly linked list of array slots:
/// lookup, insert and eviction are O(1) each (amortised); memory is O(entries).
struct LRUCache<Key: Hashable, Value> {
  private struct Node {
    var key: Key
    var value: Value
    var cost: Int
    var newer: Int?
    var older: Int?
  }

  let capacity: Int
  private(set) var totalCost = 0
  private var nodes: [Node?] = []
  private var freeSlots: [Int] = []
  private var slots: [Key: Int] = [:]
  private var newest: Int?
  private var oldest: Int?

  init(capacity: Int) {
    self.capacity = max(0, capacity)
  }

  var count: Int { slots.count }

  /// The value for `key`, which becomes the most recently used.
  mutating func value(for key: Key) -> Value? {
    guard let slot = slots[key], let node = nodes[slot] else { return nil }
    unlink(slot)
    pushNewest(slot)
    return node.value
  }

  /// Stores `value`; evicts the least recently used entries while over capacity. A value
  /// costlier than the whole capacity is not stored.
  mutating func insert(_ value: Value, for key: Key, cost: Int) {
    remove(key)
    guard cost <= capacity else { return }
    let node = Node(key: key, value: value, cost: cost)
    let slot: Int
    if let free = freeSlots.popLast() {
      slot = free
      nodes[slot] = node
    } else {
      slot = nodes.count
      nodes.append(node)
    }
    slots[key] = slot
    totalCost += cost
    pushNewest(slot)
    while totalCost > capacity, let victim = oldest, let key = nodes[victim]?.key {
      remove(key)
    }
  }

  mutating func remove(_ key: Key) {
    guard let slot = slots.removeValue(forKey: key), let node = nodes[slot] else { return }
    unlink(slot)
    totalCost -= node.cost
    nodes[slot] = nil
    freeSlots.append(slot)
  }

  private mutating func unlink(_ slot: Int) {
    guard let node = nodes[slot] else { return }
    if let newer = node.newer { nodes[newer]?.older = node.older } else { newest = node.older }
    if let older = node.older { nodes[older]?.newer = node.newer } else { oldest = node.newer }
    nodes[slot]?.newer = nil
    nodes[slot]?.older = nil
  }

  private mutating func pushNewest(_ slot: Int) {
    nodes[slot]?.older = newest
    nodes[slot]?.newer = nil
    if let newest { nodes[newest]?.newer = slot }
    newest = slot
    if oldest == nil { oldest = slot }
  }
}
