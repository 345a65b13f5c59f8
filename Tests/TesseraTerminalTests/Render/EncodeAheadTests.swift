import Testing

@testable import TesseraTerminal
@testable import TesseraUtilities

/// Work given to an ``EncodeAhead`` that a test holds and releases: what runs, and when, is the
/// test's to say (no thread, no sleep).
final class HeldExecutor: Sendable {
  private let held = Locked<[@Sendable () -> Void]>([])

  var executor: EncodeAhead<Int, Int>.Executor { executor(for: Int.self, Int.self) }

  func executor<Key, Value>(
    for key: Key.Type, _ value: Value.Type
  ) -> EncodeAhead<Key, Value>.Executor {
    EncodeAhead<Key, Value>.Executor { [held] work in held.withLock { $0.append(work) } }
  }

  /// Workers started and not yet released.
  var waiting: Int { held.withLock { $0.count } }

  /// Runs every worker held now (each runs the jobs queued when it runs).
  func release() {
    let workers = held.withLock { held in
      defer { held.removeAll() }
      return held
    }
    for worker in workers { worker() }
  }
}

/// Encodings ahead of the frame (``EncodeAhead``): asked for once, run in order off the
/// caller, dropped when no longer wanted, handed over once.
@Suite struct EncodeAheadTests {
  /// Counts how often each key's work ran.
  final class Runs: Sendable {
    let counts = Locked<[Int: Int]>([:])
    func work(_ key: Int) -> @Sendable () -> Int {
      { [counts] in
        counts.withLock { $0[key, default: 0] += 1 }
        return key * 10
      }
    }
    func count(_ key: Int) -> Int { counts.withLock { $0[key] ?? 0 } }
  }

  @Test func workRunsOnTheExecutorAndIsHandedOverOnce() {
    let held = HeldExecutor()
    let readies = Locked(0)
    let ahead = EncodeAhead<Int, Int>(executor: held.executor, concurrency: 1) {
      readies.withLock { $0 += 1 }
    }
    let runs = Runs()
    ahead.request(1, work: runs.work(1))
    ahead.request(2, work: runs.work(2))
    // Asked again while queued: not queued twice.
    ahead.request(1, work: runs.work(1))
    #expect(held.waiting == 1, "one worker for concurrency 1, \(held.waiting) started")
    #expect(ahead.take(1) == nil, "nothing is done before the executor runs it")
    held.release()
    #expect(runs.count(1) == 1 && runs.count(2) == 1, "runs: \(runs.counts.withLock { $0 })")
    #expect(readies.withLock { $0 } == 2, "onReady after each result")
    #expect(ahead.take(2) == 20)
    #expect(ahead.take(1) == 10)
    #expect(ahead.take(1) == nil, "a result is handed over once")
    // Taken, it may be asked for again (the tile needs it once more).
    ahead.request(1, work: runs.work(1))
    held.release()
    #expect(runs.count(1) == 2)
  }

  @Test func whatIsNoLongerWantedIsDroppedBeforeItRuns() {
    let held = HeldExecutor()
    let ahead = EncodeAhead<Int, Int>(executor: held.executor, concurrency: 1)
    let runs = Runs()
    for key in 1...3 { ahead.request(key, work: runs.work(key)) }
    // Tile 2 left the screen before its turn.
    ahead.keep(only: [1, 3])
    held.release()
    #expect(runs.count(2) == 0, "dropped work ran")
    #expect(runs.count(1) == 1 && runs.count(3) == 1)
    // A result not taken goes with its tile.
    ahead.keep(only: [3])
    #expect(ahead.take(1) == nil)
    #expect(ahead.take(3) == 30)
    // Dropped and asked for again while the old job is still queued: it runs once.
    ahead.request(4, work: runs.work(4))
    ahead.keep(only: [])
    ahead.request(4, work: runs.work(4))
    held.release()
    #expect(runs.count(4) == 1, "ran \(runs.count(4)) times")
    #expect(ahead.take(4) == 40)
  }

  @Test func inlineWorkIsDoneBeforeTheRequestReturns() {
    let ahead = EncodeAhead<Int, Int>(executor: .inline)
    let runs = Runs()
    ahead.request(7, work: runs.work(7))
    #expect(ahead.take(7) == 70)
  }

  /// The gallery's executor: work on Dispatch's threads, each result announced, none lost.
  @Test(.timeLimit(.minutes(1))) func backgroundWorkIsDoneOnOtherThreadsAndAnnounced() async {
    let (readies, announce) = AsyncStream.makeStream(of: Void.self)
    let ahead = EncodeAhead<Int, Int>(executor: .background, concurrency: 2) {
      announce.yield()
    }
    let runs = Runs()
    let keys = Set(1...16)
    for key in keys.sorted() { ahead.request(key, work: runs.work(key)) }
    var results: [Int: Int] = [:]
    var announced = 0
    for await _ in readies {
      announced += 1
      for key in keys where results[key] == nil {
        if let value = ahead.take(key) { results[key] = value }
      }
      if results.count == keys.count { break }
    }
    #expect(announced <= keys.count, "\(announced) announcements for \(keys.count) results")
    #expect(results == Dictionary(uniqueKeysWithValues: keys.map { ($0, $0 * 10) }))
    #expect(keys.allSatisfy { runs.count($0) == 1 }, "runs: \(runs.counts.withLock { $0 })")
  }

  @Test func workersStayWithinTheConcurrency() {
    let held = HeldExecutor()
    let ahead = EncodeAhead<Int, Int>(executor: held.executor, concurrency: 2)
    let runs = Runs()
    for key in 1...5 { ahead.request(key, work: runs.work(key)) }
    #expect(held.waiting == 2, "\(held.waiting) workers for concurrency 2")
    held.release()
    #expect((1...5).allSatisfy { runs.count($0) == 1 })
    // Both workers ended: the next request starts one again.
    ahead.request(6, work: runs.work(6))
    #expect(held.waiting == 1)
  }
}
