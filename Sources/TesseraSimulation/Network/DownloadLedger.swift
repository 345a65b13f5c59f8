/// What went over the network in one run, per item: downloads started, bytes received
/// (whole bodies and the part of cancelled ones), and duplicates: downloads of an image
/// whose bytes had already arrived, or were arriving on another connection, when it began.
/// O(1) per event; O(items touched) memory.
struct DownloadLedger {
  private(set) var started = 0
  private(set) var completed = 0
  private(set) var failed = 0
  private(set) var cancelled = 0
  private(set) var duplicates = 0
  private(set) var bytes = 0
  private(set) var bytesByItem: [Int: Int] = [:]
  private var inFlight: [String: Int] = [:]
  private var received: Set<String> = []

  mutating func start(url: String) {
    started += 1
    if received.contains(url) || inFlight[url, default: 0] > 0 { duplicates += 1 }
    inFlight[url, default: 0] += 1
  }

  mutating func complete(url: String, item: Int, succeeded: Bool, bytes count: Int) {
    inFlight[url, default: 1] -= 1
    if succeeded {
      completed += 1
      received.insert(url)
    } else {
      failed += 1
    }
    add(count, to: item)
  }

  mutating func cancel(url: String, item: Int, bytesReceived: Int) {
    inFlight[url, default: 1] -= 1
    cancelled += 1
    add(bytesReceived, to: item)
  }

  /// Bytes received for items that never appeared on screen.
  func bytes(forItemsNotIn shown: Set<Int>) -> Int {
    bytesByItem.reduce(0) { $0 + (shown.contains($1.key) ? 0 : $1.value) }
  }

  private mutating func add(_ count: Int, to item: Int) {
    bytes += count
    bytesByItem[item, default: 0] += count
  }
}

/// The network as the strategies see it: the link, the model's draws per URL and attempt,
/// and the ledger, kept in step. O(1) per call on top of the link's cost; O(URLs) memory.
struct SimulatedNetwork {
  let model: NetworkModel
  let seed: UInt64
  private(set) var link: NetworkLink
  private(set) var ledger = DownloadLedger()
  private var attempts: [String: Int] = [:]
  private var transfers: [Int: (url: String, item: Int)] = [:]

  init(model: NetworkModel, seed: UInt64) {
    self.model = model
    self.seed = seed
    link = NetworkLink(bandwidth: model.bandwidth)
  }

  var time: Double { link.time }

  /// Starts a download of `bytes` for `item` now; answers the transfer's id.
  mutating func start(url: String, item: Int, bytes: Int) -> Int {
    let attempt = attempts[url, default: 0]
    attempts[url] = attempt + 1
    let plan = model.plan(url: url, attempt: attempt, seed: seed)
    ledger.start(url: url)
    let id = link.start(
      url: url, item: item, bytes: bytes, latency: plan.latency, fails: plan.fails)
    transfers[id] = (url, item)
    return id
  }

  mutating func cancel(_ id: Int) {
    guard let transfer = transfers.removeValue(forKey: id) else { return }
    let bytes = link.cancel(id)
    ledger.cancel(url: transfer.url, item: transfer.item, bytesReceived: bytes)
  }

  /// The next download to finish by `limit`, recorded; nil once none is left by then.
  mutating func nextCompletion(upTo limit: Double) -> NetworkLink.Completion? {
    guard let completion = link.nextCompletion(upTo: limit) else { return nil }
    transfers.removeValue(forKey: completion.id)
    ledger.complete(
      url: completion.url, item: completion.item, succeeded: completion.succeeded,
      bytes: completion.bytes)
    return completion
  }
}
