/// A fixed-size set of flags, one bit each. O(1) get/set; O(n/64) reset.
struct BitSet {
  private(set) var words: [UInt64] = []
  private(set) var count = 0

  init(count: Int, value: Bool = false) { reset(count: count, value: value) }

  mutating func reset(count: Int, value: Bool) {
    self.count = count
    words = [UInt64](repeating: value ? ~0 : 0, count: (count + 63) / 64)
  }

  subscript(index: Int) -> Bool {
    get { words[index >> 6] & (1 << UInt64(index & 63)) != 0 }
    set {
      if newValue {
        words[index >> 6] |= 1 << UInt64(index & 63)
      } else {
        words[index >> 6] &= ~(1 << UInt64(index & 63))
      }
    }
  }

  var storageBytes: Int { words.capacity * MemoryLayout<UInt64>.stride }
}
