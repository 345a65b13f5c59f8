/// Transfers on the virtual clock: each waits its latency, then receives its bytes at an
/// equal share of the link's bandwidth with every other transfer receiving at that moment
/// (processor sharing), then completes. Failing transfers complete at their first byte.
///
/// Events are taken one at a time in (time, id) order, so a caller can react to each
/// completion (start the next queued transfer) at the exact time it happens.
/// O(transfers in progress) per event; at most a few connections' worth are in progress.
struct NetworkLink {
  struct Transfer {
    let id: Int
    let url: String
    let item: Int
    let bytes: Double
    let firstByteAt: Double
    let fails: Bool
    var received: Double = 0
  }

  struct Completion {
    let id: Int
    let url: String
    let item: Int
    let time: Double
    let succeeded: Bool
    let bytes: Int
  }

  let bandwidth: Double?
  /// The time the link has been advanced to; transfers started now start at this time.
  private(set) var time: Double = 0
  private var transfers: [Transfer] = []
  private var nextID = 0

  init(bandwidth: Double?) { self.bandwidth = bandwidth }

  var inProgress: Int { transfers.count }

  /// Starts a transfer at the link's current time; returns its id.
  mutating func start(url: String, item: Int, bytes: Int, latency: Double, fails: Bool) -> Int {
    defer { nextID += 1 }
    transfers.append(
      Transfer(
        id: nextID, url: url, item: item, bytes: Double(bytes), firstByteAt: time + latency,
        fails: fails))
    return nextID
  }

  /// Stops a transfer; answers the bytes it had received (0 when unknown).
  mutating func cancel(_ id: Int) -> Int {
    guard let index = transfers.firstIndex(where: { $0.id == id }) else { return 0 }
    return Int(transfers.remove(at: index).received)
  }

  /// The next transfer to complete at or before `limit`, with the link advanced to its
  /// time; nil (and the link advanced to `limit`) when none does.
  mutating func nextCompletion(upTo limit: Double) -> Completion? {
    while let (eventTime, index, completes) = nextEvent(), eventTime <= limit {
      receive(until: eventTime)
      guard completes else { continue }
      let transfer = transfers.remove(at: index)
      return Completion(
        id: transfer.id, url: transfer.url, item: transfer.item, time: eventTime,
        succeeded: !transfer.fails, bytes: transfer.fails ? 0 : Int(transfer.bytes))
    }
    if limit > time { receive(until: limit) }
    return nil
  }

  private var receivingCount: Int {
    transfers.reduce(0) { $0 + ($1.firstByteAt <= time && !$1.fails ? 1 : 0) }
  }

  /// The earliest event: a first byte (which completes a failing transfer) or the end of a
  /// body at the current share of the bandwidth. Ties go to the lower id.
  private func nextEvent() -> (time: Double, index: Int, completes: Bool)? {
    let receiving = receivingCount
    var best: (time: Double, index: Int, completes: Bool, id: Int)?
    for (index, transfer) in transfers.enumerated() {
      let candidate: (Double, Bool)
      if transfer.firstByteAt > time || transfer.fails {
        candidate = (max(time, transfer.firstByteAt), transfer.fails || bandwidth == nil)
      } else if let bandwidth {
        let share = bandwidth / Double(max(1, receiving))
        candidate = (time + max(0, transfer.bytes - transfer.received) / share, true)
      } else {
        candidate = (time, true)
      }
      if let current = best, (current.time, current.id) <= (candidate.0, transfer.id) { continue }
      best = (candidate.0, index, candidate.1, transfer.id)
    }
    return best.map { ($0.time, $0.index, $0.completes) }
  }

  /// Advances the clock to `target`, crediting the bytes received meanwhile.
  private mutating func receive(until target: Double) {
    guard target > time else { return }
    if let bandwidth {
      let receiving = receivingCount
      if receiving > 0 {
        let credit = bandwidth / Double(receiving) * (target - time)
        for index in transfers.indices
        where transfers[index].firstByteAt <= time && !transfers[index].fails {
          transfers[index].received = min(
            transfers[index].bytes, transfers[index].received + credit)
        }
      }
    }
    time = target
  }
}
