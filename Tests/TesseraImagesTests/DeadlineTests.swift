import Foundation
import TesseraUtilities
import Testing

@testable import TesseraImages

/// `requestTimeout` is a deadline for the whole download, kept by the pipeline whatever the
/// loader does. Time is a manual clock: nothing here waits for real seconds.
@Suite(.timeLimit(.minutes(1))) struct DeadlineTests {
  /// A loader that never answers is cancelled at the deadline (to the millisecond: 2.5 s is
  /// not rounded to whole seconds) and the task fails with `.timedOut`.
  @Test func aDownloadPastTheDeadlineTimesOutAndIsCancelled() async {
    let loader = HeldDataLoader()
    let clock = ManualClock()
    let pipeline = makePipeline(loader, timeout: 2.5, clock: clock)
    let task = pipeline.imageTask(with: Fixtures.request("a.png"))
    await loader.waitForHeld(1)
    await clock.waitForSleepers(1)
    clock.advance(by: .milliseconds(2_499))
    #expect(clock.sleeperCount == 1)  // not yet
    clock.advance(by: .milliseconds(1))
    await #expect(throws: ImagePipelineError.timedOut) { try await task.image }
    await loader.wait { $0.cancelled == 1 }
    #expect(pipeline.statistics.downloadsFailed == 1)
  }

  /// The deadline starts with the download, not with the request: a request that waited for
  /// a download slot gets its whole time. A download that finishes in time stops its timer.
  @Test func timeWaitingForADownloadSlotDoesNotCount() async throws {
    let loader = HeldDataLoader()
    let clock = ManualClock()
    let pipeline = makePipeline(loader, downloads: 1, timeout: 10, clock: clock)
    let first = pipeline.imageTask(with: Fixtures.request("a.png"))
    let second = pipeline.imageTask(with: Fixtures.request("b.png"))
    await loader.waitForHeld(1)
    await clock.waitForSleepers(1)
    clock.advance(by: .seconds(10))
    await #expect(throws: ImagePipelineError.timedOut) { try await first.image }
    await loader.wait { $0.calls == 2 && $0.held == 1 }
    await clock.waitForSleepers(1)
    clock.advance(by: .seconds(9))  // 19 s since `second` was asked for, 9 since it started
    #expect(clock.sleeperCount == 1)
    loader.release(1, with: .success(Fixtures.ok()))
    #expect(try await second.image.width == 64)
    await clock.waitForSleepers(0)
  }

  /// The request modifier's time counts: one that hangs (a token refresh that never answers)
  /// is cancelled at the deadline, the load fails with `.timedOut`, and nothing is sent.
  @Test func aRequestModifierThatHangsIsHeldToTheDeadline() async {
    let loader = HeldDataLoader()
    let clock = ManualClock()
    let (started, modifierStarted) = AsyncStream<Void>.makeStream()
    let cancelled = Locked(false)
    var configuration = ImagePipeline.Configuration(
      dataLoader: loader, memoryCache: nil, thumbnailCache: nil, requestTimeout: 5,
      requestModifier: { _ async throws(ImagePipelineError) in
        modifierStarted.yield()
        let (never, keep) = AsyncStream<Void>.makeStream()
        defer { keep.finish() }
        for await _ in never {}  // returns only when cancelled
        cancelled.withLock { $0 = true }
        throw .cancelled
      })
    configuration.clock = clock
    let pipeline = ImagePipeline(configuration: configuration)
    let task = pipeline.imageTask(with: Fixtures.request("a.png"))
    var iterator = started.makeAsyncIterator()
    _ = await iterator.next()
    await clock.waitForSleepers(1)
    clock.advance(by: .seconds(5))
    await #expect(throws: ImagePipelineError.timedOut) { try await task.image }
    #expect(cancelled.withLock { $0 })
    #expect(loader.callCount == 0)
  }

  /// A timeout that is not a number (or out of range) is clamped, never trapped on.
  @Test func aTimeoutOutOfRangeIsClamped() {
    func deadline(_ seconds: TimeInterval) -> TimeInterval {
      ImagePipeline.Configuration(dataLoader: HeldDataLoader(), requestTimeout: seconds)
        .downloadDeadline
    }
    #expect(deadline(.nan) == 30)
    #expect(deadline(-1) == 0.001)
    #expect(deadline(.infinity) == 3_600)
    #expect(deadline(0.25) == 0.25)
  }
}
