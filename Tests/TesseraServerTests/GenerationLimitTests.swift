import Dispatch
import Foundation
import Hummingbird
import HummingbirdTesting
import TesseraUtilities
import Testing

@testable import TesseraServer

/// Stands in for the painter: every generation blocks its (Dispatch) thread until the test
/// opens the gate, and the most generations ever running at once is recorded.
final class HeldGenerations: Sendable {
  private struct Counts {
    var running = 0
    var most = 0
    var started = 0
  }

  private let counts = Locked(Counts())
  private let gate = DispatchSemaphore(value: 0)
  private let startedContinuation: AsyncStream<Int>.Continuation
  /// The image id of each generation, as it starts.
  let starts: AsyncStream<Int>

  init() {
    (starts, startedContinuation) = AsyncStream.makeStream()
  }

  /// Most generations that ever ran at the same time.
  var most: Int { counts.withLock { $0.most } }
  var started: Int { counts.withLock { $0.started } }

  func generate(_ key: ImageKey, _ seed: UInt64) throws -> [UInt8] {
    counts.withLock {
      $0.running += 1
      $0.started += 1
      $0.most = max($0.most, $0.running)
    }
    startedContinuation.yield(key.id)
    gate.wait()
    counts.withLock { $0.running -= 1 }
    return Array("image \(key.id)".utf8)
  }

  /// Lets `count` generations finish.
  func release(_ count: Int) {
    for _ in 0..<count { gate.signal() }
  }
}

@Suite(.timeLimit(.minutes(1))) struct GenerationLimitTests {
  /// A burst of distinct images: never more than `limit` generations at once, the rest wait,
  /// and the feed and users routes answer while every slot is held.
  @Test func aBurstOfDistinctImagesIsBoundedAndOtherRoutesStillAnswer() async throws {
    let limit = 2
    let burst = 7
    let held = HeldGenerations()
    let (changes, observer) = AsyncStream<GenerationLimiter.Counts>.makeStream()
    var configuration = FeedServer.Configuration.small()
    configuration.generationLimit = limit
    let routes = FeedRoutes(
      configuration: configuration, generator: { try held.generate($0, $1) },
      limiterObserver: { observer.yield($0) })
    let app = Application(router: routes.makeRouter())
    try await app.test(.router) { client in
      let uris = (1...burst).map {
        "/photos/\($0)_\(GeneratedImages.secret(id: $0, seed: routes.catalog.seed))_o.png"
      }
      try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
        for uri in uris {
          group.addTask { try await client.execute(uri: uri, method: .get).status }
        }
        // Every request has arrived: `limit` generating, the others waiting their turn.
        for await counts in changes
        where counts == GenerationLimiter.Counts(running: limit, waiting: burst - limit) {
          break
        }
        var starts = held.starts.makeAsyncIterator()
        for _ in 0..<limit { _ = await starts.next() }
        #expect(held.started == limit)
        let feed = try await client.execute(uri: RoutesTests.feed, method: .get)
        #expect(feed.status == .ok)
        let users = try await client.execute(uri: "/users.json", method: .get)
        #expect(users.status == .ok)
        held.release(burst)
        var statuses: [HTTPResponse.Status] = []
        for try await status in group { statuses.append(status) }
        #expect(statuses == Array(repeating: .ok, count: burst))
      }
    }
    #expect(held.most == limit)
    #expect(held.started == burst)
    #expect(routes.store.limiter.counts == GenerationLimiter.Counts(running: 0, waiting: 0))
  }

  /// The same image asked for many times is generated once, inside one slot.
  @Test func oneImageAskedManyTimesIsGeneratedOnce() async throws {
    let held = HeldGenerations()
    let store = ImageStore(
      seed: 1, capacityBytes: 1 << 20, generationLimit: 1, generator: { try held.generate($0, $1) })
    let key = ImageKey(kind: .photo, id: 5, variant: .o, format: .png)
    try await withThrowingTaskGroup(of: [UInt8].self) { group in
      for _ in 0..<5 { group.addTask { try await store.image(key).bytes } }
      held.release(1)
      for try await bytes in group { #expect(bytes == Array("image 5".utf8)) }
    }
    #expect(held.started == 1)
  }

  @Test func aCancelledWaiterLeavesTheQueue() async throws {
    let (changes, observer) = AsyncStream<GenerationLimiter.Counts>.makeStream()
    let limiter = GenerationLimiter(limit: 1) { observer.yield($0) }
    try await limiter.acquire()
    let waiter = Task { try await limiter.acquire() }
    for await counts in changes where counts.waiting == 1 { break }
    waiter.cancel()
    await #expect(throws: CancellationError.self) { try await waiter.value }
    #expect(limiter.counts == GenerationLimiter.Counts(running: 1, waiting: 0))
    limiter.release()
    #expect(limiter.counts == GenerationLimiter.Counts(running: 0, waiting: 0))
  }

  @Test func slotsPassOnInArrivalOrder() async throws {
    let (changes, observer) = AsyncStream<GenerationLimiter.Counts>.makeStream()
    let limiter = GenerationLimiter(limit: 1) { observer.yield($0) }
    let order = Locked<[Int]>([])
    try await limiter.acquire()
    var iterator = changes.makeAsyncIterator()
    var tasks: [Task<Void, any Error>] = []
    for number in 1...4 {
      tasks.append(
        Task {
          try await limiter.acquire()
          order.withLock { $0.append(number) }
          limiter.release()
        })
      // Wait until this one queues before the next starts, so arrival order is known.
      while let counts = await iterator.next(), counts.waiting < number {}
    }
    limiter.release()
    for task in tasks { try await task.value }
    #expect(order.withLock { $0 } == [1, 2, 3, 4])
  }

  @Test func theConfiguredLimitIsClamped() {
    #expect(ImageStore(seed: 1, capacityBytes: 0, generationLimit: 0).limiter.limit == 1)
    #expect(
      ImageStore(seed: 1, capacityBytes: 0, generationLimit: Int.max).limiter.limit
        == ServerLimits.maxGenerationConcurrency)
    #expect(
      (1...ServerLimits.maxGenerationConcurrency).contains(ServerLimits.generationConcurrency))
  }
}
