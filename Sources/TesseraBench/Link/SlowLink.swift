/// One direction of a link of a given rate and delay, as `tc netem rate … delay …` models it:
/// bytes leave one packet after another at the line rate and arrive ``delay`` seconds after
/// they left. What has not left yet is the sender's queue (an SSH channel's and a TCP
/// socket's buffers): ``backlog(at:)`` tells how much, so the caller can stop taking bytes
/// when it is full, as a blocked `write` would. Times are the caller's, in seconds.
///
/// - Complexity: ``send(_:at:)`` O(n) in the bytes sent; ``arrived(by:)`` O(packets
///   delivered), amortised; memory O(bytes in flight).
struct SlowLink {
  /// A packet's payload at most: an Ethernet frame's TCP segment.
  static let packetSize = 1448

  let bytesPerSecond: Double
  let delay: Double

  private var packets: [(arrival: Double, bytes: ArraySlice<UInt8>)] = []
  private var head = 0
  /// When the last packet queued finishes leaving.
  private var lineFreeAt = 0.0
  /// Every byte sent, and every byte arrived.
  private(set) var sent = 0
  private(set) var delivered = 0

  /// - Precondition: `bytesPerSecond` > 0, `delay` ≥ 0 (the bench validates its options).
  init(bytesPerSecond: Double, delay: Double) {
    self.bytesPerSecond = bytesPerSecond
    self.delay = delay
  }

  /// Queues `bytes`, written at `now`.
  mutating func send(_ bytes: [UInt8], at now: Double) {
    var start = 0
    while start < bytes.count {
      let end = min(bytes.count, start + Self.packetSize)
      lineFreeAt = max(lineFreeAt, now) + Double(end - start) / bytesPerSecond
      packets.append((lineFreeAt + delay, bytes[start..<end]))
      start = end
    }
    sent += bytes.count
  }

  /// Bytes queued at `now` that have not left yet.
  func backlog(at now: Double) -> Int { Int(max(0, lineFreeAt - now) * bytesPerSecond) }

  /// When the next packet arrives; nil when none is on its way.
  var nextArrival: Double? { head < packets.count ? packets[head].arrival : nil }

  /// Whether every byte sent has arrived.
  var isIdle: Bool { head == packets.count }

  /// The bytes that have arrived by `now`, in order.
  mutating func arrived(by now: Double) -> [UInt8] {
    var out: [UInt8] = []
    while head < packets.count, packets[head].arrival <= now {
      out.append(contentsOf: packets[head].bytes)
      head += 1
    }
    if head > 4096, head * 2 > packets.count {
      packets.removeFirst(head)
      head = 0
    }
    delivered += out.count
    return out
  }
}
