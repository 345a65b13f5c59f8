import Testing

@testable import TesseraSimulation

/// The virtual network: processor sharing and latency, worked out by hand.
struct NetworkLinkTests {
  /// Two 1,000-byte transfers on a 10 B/ms link, no latency: each receives at 5 B/ms, so
  /// both finish at 200 ms (the lower id first).
  @Test func transfersShareTheBandwidth() {
    var link = NetworkLink(bandwidth: 10)
    let a = link.start(url: "a", item: 1, bytes: 1_000, latency: 0, fails: false)
    let b = link.start(url: "b", item: 2, bytes: 1_000, latency: 0, fails: false)
    #expect(link.nextCompletion(upTo: 199) == nil)
    let first = link.nextCompletion(upTo: 1_000)
    let second = link.nextCompletion(upTo: 1_000)
    #expect(first?.id == a && first?.time == 200)
    #expect(second?.id == b && second?.time == 200)
  }

  /// A 1,000-byte transfer alone for 50 ms (500 bytes at 10 B/ms), then a second one with
  /// 20 ms of latency joins at 50: the first gets 10 B/ms until 70 (700 bytes), then 5 B/ms
  /// for its last 300 bytes: done at 130. The second has 300 bytes by then and the whole
  /// link for its last 700: done at 200.
  @Test func latencyDelaysTheShare() {
    var link = NetworkLink(bandwidth: 10)
    _ = link.start(url: "a", item: 1, bytes: 1_000, latency: 0, fails: false)
    #expect(link.nextCompletion(upTo: 50) == nil)
    _ = link.start(url: "b", item: 2, bytes: 1_000, latency: 20, fails: false)
    let first = link.nextCompletion(upTo: 1_000)
    let second = link.nextCompletion(upTo: 1_000)
    #expect(first?.url == "a" && first.map { abs($0.time - 130) < 1e-9 } == true)
    #expect(second?.url == "b" && second.map { abs($0.time - 200) < 1e-9 } == true)
  }

  /// A failing transfer ends at its first byte with nothing received; a cancelled one
  /// answers the bytes it had.
  @Test func failuresAndCancellations() {
    var link = NetworkLink(bandwidth: 10)
    _ = link.start(url: "fails", item: 1, bytes: 1_000, latency: 30, fails: true)
    let cancelled = link.start(url: "c", item: 2, bytes: 1_000, latency: 0, fails: false)
    let failure = link.nextCompletion(upTo: 1_000)
    #expect(failure?.url == "fails" && failure?.time == 30 && failure?.succeeded == false)
    #expect(failure?.bytes == 0)
    #expect(link.nextCompletion(upTo: 40) == nil)
    #expect(link.cancel(cancelled) == 400)
  }

  /// Without bandwidth, bytes arrive at the first byte.
  @Test func unlimitedBandwidthCompletesAtTheLatency() {
    var link = NetworkLink(bandwidth: nil)
    _ = link.start(url: "a", item: 1, bytes: 5_000, latency: 35, fails: false)
    #expect(link.nextCompletion(upTo: 34.9) == nil)
    #expect(link.nextCompletion(upTo: 35)?.bytes == 5_000)
  }

  /// A request's latency and fate depend on (seed, URL, attempt) only.
  @Test func plansArePureFunctions() {
    let model = NetworkModel.standard
    let first = model.plan(url: "u", attempt: 0, seed: 9)
    #expect(first == model.plan(url: "u", attempt: 0, seed: 9))
    #expect(first != model.plan(url: "u", attempt: 1, seed: 9))
    #expect(NetworkModel.fixed(latency: 35).plan(url: "u", attempt: 3, seed: 1) == (35, false))
  }

  /// The ledger: a second download of bytes already received is a duplicate; bytes of items
  /// never shown are counted apart.
  @Test func ledgerCountsDuplicatesAndUnseenBytes() {
    var ledger = DownloadLedger()
    ledger.start(url: "a")
    ledger.complete(url: "a", item: 1, succeeded: true, bytes: 100)
    ledger.start(url: "a")
    ledger.start(url: "b")
    ledger.start(url: "b")
    ledger.cancel(url: "b", item: 2, bytesReceived: 30)
    #expect(ledger.started == 4)
    #expect(ledger.duplicates == 2)
    #expect(ledger.bytes(forItemsNotIn: [1]) == 30)
  }
}

extension NetworkLink.Completion: Equatable {
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.id == rhs.id && lhs.time == rhs.time && lhs.bytes == rhs.bytes
  }
}
