import Foundation
import Testing

@testable import TesseraFeeds

/// A source that holds every fetch until answered and records which fetches were cancelled.
final class HeldSource: FeedSource, @unchecked Sendable {
  let noun = "photos"
  private let lock = NSLock()
  private var held: [Int: CheckedContinuation<Result<FeedPage<String>, FeedError>, Never>] = [:]
  private var cancelledRequests: [Int] = []
  private var count = 0
  private let started: AsyncStream<Int>.Continuation
  /// The number (1, 2, …) of each fetch, as it starts.
  let starts: AsyncStream<Int>
  private let ended: AsyncStream<Int>.Continuation
  /// The number of each fetch, as it ends (answered or cancelled).
  let ends: AsyncStream<Int>

  init() {
    (starts, started) = AsyncStream.makeStream()
    (ends, ended) = AsyncStream.makeStream()
  }

  /// Fetches that saw their task cancelled, in order.
  var cancelled: [Int] { lock.withLock { cancelledRequests } }

  func fetch(page: Int) async throws(FeedError) -> FeedPage<String> {
    let number = lock.withLock {
      count += 1
      return count
    }
    defer { ended.yield(number) }
    let result = await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        let cancelledAlready = lock.withLock {
          if Task.isCancelled { return true }
          held[number] = continuation
          return false
        }
        if cancelledAlready { continuation.resume(returning: .failure(.cancelled)) }
        started.yield(number)
      }
    } onCancel: {
      let continuation = lock.withLock {
        cancelledRequests.append(number)
        return held.removeValue(forKey: number)
      }
      continuation?.resume(returning: .failure(.cancelled))
    }
    return try result.get()
  }

  /// Answers fetch `number` if it is still held.
  func answer(_ number: Int, with result: Result<FeedPage<String>, FeedError>) {
    lock.withLock { held.removeValue(forKey: number) }?.resume(returning: result)
  }
}

@MainActor
@Suite(.timeLimit(.minutes(1))) struct FeedControllerCancellationTests {
  @Test func aRefreshCancelsTheLoadItSupersedes() async {
    let source = HeldSource()
    let controller = FeedController(source: source)
    var starts = source.starts.makeAsyncIterator()
    var ends = source.ends.makeAsyncIterator()
    async let first: Void = controller.load()
    #expect(await starts.next() == 1)
    async let second: Void = controller.refresh()
    #expect(await starts.next() == 2)
    // The first fetch ended without being answered: the refresh cancelled it.
    #expect(await ends.next() == 1)
    #expect(source.cancelled == [1])
    source.answer(2, with: .success(FeedPage(items: ["new"])))
    await first
    await second
    #expect(controller.viewModels == ["new"])
    #expect(controller.state == .loaded)
    #expect(source.cancelled == [1])
  }

  @Test func aRefreshCancelsANextPageUnderWay() async {
    let source = HeldSource()
    let controller = FeedController(source: source)
    var starts = source.starts.makeAsyncIterator()
    async let load: Void = controller.load()
    #expect(await starts.next() == 1)
    source.answer(1, with: .success(FeedPage(items: ["a"], nextPage: 2)))
    await load
    async let more: Void = controller.loadNextPage()
    #expect(await starts.next() == 2)
    async let refresh: Void = controller.refresh()
    #expect(await starts.next() == 3)
    source.answer(3, with: .success(FeedPage(items: ["b"])))
    await more
    await refresh
    #expect(source.cancelled == [2])
    #expect(controller.viewModels == ["b"])
  }

  /// Cancelling the caller's task cancels its fetch; the controller is idle again, with no
  /// failure to show, and a later load works.
  @Test func cancellingTheCallerCancelsTheFetch() async {
    let source = HeldSource()
    let controller = FeedController(source: source)
    var starts = source.starts.makeAsyncIterator()
    let loading = Task { await controller.load() }
    #expect(await starts.next() == 1)
    loading.cancel()
    await loading.value
    #expect(source.cancelled == [1])
    #expect(controller.state == .idle)
    #expect(controller.lastError == nil)
    async let again: Void = controller.load()
    #expect(await starts.next() == 2)
    source.answer(2, with: .success(FeedPage(items: ["a"])))
    await again
    #expect(controller.viewModels == ["a"])
  }
}
