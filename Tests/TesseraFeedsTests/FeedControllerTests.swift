import Foundation
import Testing

@testable import TesseraFeeds

/// A source whose answers the test hands out one at a time.
final class ScriptedSource: FeedSource, @unchecked Sendable {
  let noun = "photos"
  private let lock = NSLock()
  private var waiting:
    [(page: Int, continuation: CheckedContinuation<FeedPage<String>, any Error>)] =
      []
  private var requested: AsyncStream<Int>.Continuation
  /// Pages requested, in order, as they are requested.
  let requests: AsyncStream<Int>
  private(set) var fetchedOnMainThread: [Bool] = []

  init() {
    (requests, requested) = AsyncStream.makeStream()
  }

  func fetch(page: Int) async throws(FeedError) -> FeedPage<String> {
    let onMain = Thread.isMainThread
    do {
      return try await withCheckedThrowingContinuation { continuation in
        lock.lock()
        fetchedOnMainThread.append(onMain)
        waiting.append((page, continuation))
        lock.unlock()
        requested.yield(page)
      }
    } catch let error as FeedError {
      throw error
    } catch {
      throw .network("\(error)")
    }
  }

  /// Requests not answered yet.
  var pending: Int {
    lock.lock()
    defer { lock.unlock() }
    return waiting.count
  }

  /// Answers the oldest outstanding request (or the one at `index`).
  /// A request that never came (the test ran out of time, and its cancelled waits returned
  /// early) is the test's failure, recorded: a trap here would end every suite in the process
  /// (seen under `make heap-stress` on a loaded machine).
  func answer(_ result: Result<FeedPage<String>, FeedError>, index: Int = 0) {
    lock.lock()
    let entry = waiting.indices.contains(index) ? waiting.remove(at: index) : nil
    let outstanding = waiting.count
    lock.unlock()
    guard let entry else {
      Issue.record("no request \(index) to answer (\(outstanding) outstanding)")
      return
    }
    entry.continuation.resume(with: result.mapError { $0 as any Error })
  }
}

@MainActor
@Suite(.timeLimit(.minutes(1))) struct FeedControllerTests {
  func nextRequest(_ source: ScriptedSource) async -> Int? {
    var iterator = source.requests.makeAsyncIterator()
    return await iterator.next()
  }

  @Test func loadGoesLoadingThenLoadedAndTellsTheView() async {
    let source = ScriptedSource()
    let controller = FeedController(source: source)
    var changes: [FeedController<ScriptedSource>.Change] = []
    var states: [FeedController<ScriptedSource>.State] = []
    controller.onChange = { change in
      changes.append(change)
      if change == .state { states.append(controller.state) }
    }
    #expect(controller.state == .idle)
    async let loading: Void = controller.load()
    #expect(await nextRequest(source) == 1)
    #expect(controller.state == .loading)
    source.answer(.success(FeedPage(items: ["a", "b"], nextPage: 2)))
    await loading
    #expect(controller.state == .loaded)
    #expect(states == [.loading, .loaded])
    #expect(changes == [.state, .state, .replaced])
    #expect(controller.count == 2)
    #expect(controller.hasMorePages)
    #expect(source.fetchedOnMainThread == [false])
  }

  @Test func viewModelAtIsBoundsChecked() async {
    let source = ScriptedSource()
    let controller = FeedController(source: source)
    #expect(controller.viewModel(at: 0) == nil)
    async let loading: Void = controller.load()
    _ = await nextRequest(source)
    source.answer(.success(FeedPage(items: ["a", "b"])))
    await loading
    #expect(controller.viewModel(at: 0) == "a")
    #expect(controller.viewModel(at: 1) == "b")
    #expect(controller.viewModel(at: 2) == nil)
    #expect(controller.viewModel(at: -1) == nil)
    #expect(controller.viewModel(at: Int.max) == nil)
  }

  @Test func failureSaysWhatWentWrong() async {
    let source = ScriptedSource()
    let controller = FeedController(source: source)
    async let loading: Void = controller.load()
    _ = await nextRequest(source)
    source.answer(.failure(.badStatus(500)))
    await loading
    #expect(controller.state == .failed("Can't retrieve photos: the server answered 500"))
    #expect(controller.lastError == .badStatus(500))
    #expect(controller.count == 0)
  }

  @Test func refreshSupersedesAnEarlierLoad() async {
    let source = ScriptedSource()
    let controller = FeedController(source: source)
    var iterator = source.requests.makeAsyncIterator()
    async let first: Void = controller.load()
    _ = await iterator.next()
    async let second: Void = controller.refresh()
    _ = await iterator.next()
    // The refresh answers first; the older load's late answer must not overwrite it.
    source.answer(.success(FeedPage(items: ["new"])), index: 1)
    await second
    source.answer(.success(FeedPage(items: ["stale"])))
    await first
    #expect(controller.viewModels == ["new"])
    #expect(controller.state == .loaded)
  }

  @Test func failedRefreshKeepsTheItemsShown() async {
    let source = ScriptedSource()
    let controller = FeedController(source: source)
    var iterator = source.requests.makeAsyncIterator()
    async let load: Void = controller.load()
    _ = await iterator.next()
    source.answer(.success(FeedPage(items: ["a"])))
    await load
    async let refresh: Void = controller.refresh()
    _ = await iterator.next()
    #expect(controller.state == .loading)
    #expect(controller.viewModels == ["a"])
    source.answer(.failure(.timedOut))
    await refresh
    #expect(controller.viewModels == ["a"])
    #expect(controller.state == .failed("Can't retrieve photos: the server did not answer in time"))
  }

  @Test func nextPagesAppendUntilTheLast() async {
    let source = ScriptedSource()
    let controller = FeedController(source: source)
    var changes: [FeedController<ScriptedSource>.Change] = []
    controller.onChange = { changes.append($0) }
    var iterator = source.requests.makeAsyncIterator()
    async let load: Void = controller.load()
    #expect(await iterator.next() == 1)
    source.answer(.success(FeedPage(items: ["a", "b"], nextPage: 2)))
    await load
    async let more: Void = controller.loadNextPage()
    #expect(await iterator.next() == 2)
    source.answer(.success(FeedPage(items: ["c"], nextPage: nil)))
    await more
    #expect(controller.viewModels == ["a", "b", "c"])
    #expect(changes.last == .appended(2..<3))
    #expect(!controller.hasMorePages)
    await controller.loadNextPage()  // nothing more: no request
    #expect(controller.viewModels.count == 3)
  }

  @Test func loadIsANoOpOnceLoadedOrWhileLoading() async {
    let source = ScriptedSource()
    let controller = FeedController(source: source)
    var iterator = source.requests.makeAsyncIterator()
    async let load: Void = controller.load()
    _ = await iterator.next()
    await controller.load()  // returns at once: a fetch is under way
    source.answer(.success(FeedPage(items: ["a"])))
    await load
    await controller.load()  // loaded: nothing to do
    #expect(source.pending == 0)
    #expect(source.fetchedOnMainThread.count == 1)
    #expect(controller.viewModels == ["a"])
    #expect(controller.state == .loaded)
  }
}
