import HeapModule

/// Keys waiting for a slot: the highest priority leaves first, first-come first within a
/// priority, and a waiting key's priority can change (it keeps its place in the line).
///
/// A max-heap with lazy deletion: `enqueue` and `update` are O(log n), `remove` is O(1)
/// (its heap entry is skipped when it surfaces), `popFirst` is amortised O(log n). Stale
/// entries are compacted away once they outnumber the live ones, so memory stays O(n).
struct PriorityWorkQueue<Key: Hashable> {
  private struct Entry: Comparable {
    var priority: Int
    var sequence: UInt64
    var stamp: UInt64
    var key: Key

    static func < (lhs: Entry, rhs: Entry) -> Bool {
      if lhs.priority != rhs.priority { return lhs.priority < rhs.priority }
      return lhs.sequence > rhs.sequence  // earlier arrivals rank higher
    }

    static func == (lhs: Entry, rhs: Entry) -> Bool { lhs.stamp == rhs.stamp }
  }

  private struct Live {
    var stamp: UInt64
    var sequence: UInt64
    var priority: Int
  }

  private var heap = Heap<Entry>()
  private var live: [Key: Live] = [:]
  private var nextStamp: UInt64 = 0

  var count: Int { live.count }
  var isEmpty: Bool { live.isEmpty }

  func contains(_ key: Key) -> Bool { live[key] != nil }

  func priority(of key: Key) -> Int? { live[key]?.priority }

  /// Adds `key`, or changes its priority if it is already waiting.
  mutating func enqueue(_ key: Key, priority: Int) {
    if update(key, priority: priority) { return }
    nextStamp += 1
    live[key] = Live(stamp: nextStamp, sequence: nextStamp, priority: priority)
    heap.insert(Entry(priority: priority, sequence: nextStamp, stamp: nextStamp, key: key))
  }

  /// Changes a waiting key's priority; false when the key is not waiting.
  @discardableResult
  mutating func update(_ key: Key, priority: Int) -> Bool {
    guard var entry = live[key] else { return false }
    guard entry.priority != priority else { return true }
    nextStamp += 1
    entry.stamp = nextStamp
    entry.priority = priority
    live[key] = entry
    heap.insert(Entry(priority: priority, sequence: entry.sequence, stamp: nextStamp, key: key))
    compactIfMostlyStale()
    return true
  }

  @discardableResult
  mutating func remove(_ key: Key) -> Bool {
    guard live.removeValue(forKey: key) != nil else { return false }
    compactIfMostlyStale()
    return true
  }

  /// Removes and returns the key to serve next.
  mutating func popFirst() -> Key? {
    while let entry = heap.popMax() {
      if live[entry.key]?.stamp == entry.stamp {
        live.removeValue(forKey: entry.key)
        return entry.key
      }
    }
    return nil
  }

  private mutating func compactIfMostlyStale() {
    guard heap.count > 2 * live.count + 64 else { return }
    heap = Heap(
      live.map { key, entry in
        Entry(priority: entry.priority, sequence: entry.sequence, stamp: entry.stamp, key: key)
      })
  }
}

/// One stage's concurrency limit in front of its waiting line. O(log n) per operation.
struct StageQueue<Key: Hashable> {
  let limit: Int
  private(set) var running = 0
  private(set) var waiting = PriorityWorkQueue<Key>()

  init(limit: Int) { self.limit = max(1, limit) }

  mutating func submit(_ key: Key, priority: ImageRequest.Priority) {
    waiting.enqueue(key, priority: priority.rawValue)
  }

  mutating func update(_ key: Key, priority: ImageRequest.Priority) {
    waiting.update(key, priority: priority.rawValue)
  }

  mutating func withdraw(_ key: Key) { waiting.remove(key) }

  /// The next key to run, taking a slot, or nil when all slots are busy or nobody waits.
  mutating func nextToStart() -> Key? {
    guard running < limit, let key = waiting.popFirst() else { return nil }
    running += 1
    return key
  }

  /// Frees the slot of a key returned by `nextToStart`.
  mutating func finished() { running -= 1 }
}
