/// Keyed values ordered from least to most recently used.
///
/// A doubly linked list threaded through an array (freed slots are reused) plus a dictionary
/// from key to slot: lookup, touch, insert, remove and removing the least recent entry are
/// all O(1) (amortised, as the dictionary is); memory is O(n).
struct LRUList<Key: Hashable, Value> {
  private struct Node {
    var key: Key
    var value: Value?
    var older: Int
    var newer: Int
  }

  private var nodes: [Node] = []
  private var slots: [Key: Int] = [:]
  private var freeSlots: [Int] = []
  private var oldest = -1
  private var newest = -1

  var count: Int { slots.count }
  var isEmpty: Bool { slots.isEmpty }

  /// The value for `key` without changing its recency.
  func peek(_ key: Key) -> Value? {
    guard let slot = slots[key] else { return nil }
    return nodes[slot].value
  }

  /// The value for `key`, which becomes the most recently used.
  mutating func touch(_ key: Key) -> Value? {
    guard let slot = slots[key] else { return nil }
    unlink(slot)
    linkAsNewest(slot)
    return nodes[slot].value
  }

  /// Inserts or replaces `key` as the most recently used; returns the value it replaced.
  @discardableResult
  mutating func set(_ key: Key, _ value: Value) -> Value? {
    if let slot = slots[key] {
      let old = nodes[slot].value
      nodes[slot].value = value
      unlink(slot)
      linkAsNewest(slot)
      return old
    }
    let node = Node(key: key, value: value, older: -1, newer: -1)
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
    return nil
  }

  @discardableResult
  mutating func remove(_ key: Key) -> Value? {
    guard let slot = slots.removeValue(forKey: key) else { return nil }
    return release(slot)
  }

  /// Removes and returns the least recently used entry.
  mutating func removeOldest() -> (key: Key, value: Value)? {
    guard oldest >= 0 else { return nil }
    let slot = oldest
    let key = nodes[slot].key
    slots.removeValue(forKey: key)
    guard let value = release(slot) else { return nil }
    return (key, value)
  }

  mutating func removeAll() {
    nodes.removeAll()
    slots.removeAll()
    freeSlots.removeAll()
    oldest = -1
    newest = -1
  }

  /// Keys from least to most recently used. O(n).
  var keysOldestFirst: [Key] {
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
    nodes[slot].value = nil
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
