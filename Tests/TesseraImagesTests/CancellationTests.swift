import Foundation
import TesseraTestSupport
import Testing

@testable import TesseraImages

@Suite(.timeLimit(.minutes(1))) struct CancellationTests {
  @Test func loadIsCancelledWhenEverySubscriberCancels() async {
    let loader = HeldDataLoader()
    let pipeline = makePipeline(loader)
    let completions = Completions()
    let tasks = (0..<3).map { tag in
      pipeline.startImageTask(
        with: Fixtures.request("a.png", size: 16), completion: completions.handler(tag))
    }
    await loader.waitForHeld(1)
    tasks[0].cancel()
    tasks[1].cancel()
    #expect(loader.cancelledCount == 0)
    tasks[2].cancel()
    await loader.wait { $0.cancelled == 1 }
    await completions.wait(for: 3)
    #expect(completions.all.allSatisfy { $0.error == .cancelled })
    #expect(pipeline.statistics.downloadsCancelled == 1)
    #expect(pipeline.statistics.decodes == 0)
    #expect(pipeline.statistics.tasksInFlight == 0)
  }

  /// A decode already running when its last subscriber leaves goes on, and the same image
  /// asked for again before it ends joins it: one download, one decode (a photo that moved to
  /// another cell of the screen when its date was read).
  @Test func aRunningDecodeLeftByEveryoneIsJoinedByTheNextRequest() async {
    let loader = HeldDataLoader()
    let pipeline = makePipeline(loader)
    let decodeStarted = WaitableState(false)
    let proceed = DispatchSemaphore(value: 0)
    pipeline.core.decodeWillRun.withLock {
      $0 = {
        decodeStarted.withLock { $0 = true }
        proceed.wait()
      }
    }
    defer { proceed.signal() }
    let completions = Completions()
    let first = pipeline.startImageTask(
      with: Fixtures.request("a.png", size: 16), completion: completions.handler(0))
    await loader.waitForHeld(1)
    loader.release(0, with: .success(Fixtures.ok()))
    await decodeStarted.wait { $0 }
    first.cancel()
    await completions.wait(for: 1)
    #expect(completions[0]?.error == .cancelled)
    pipeline.startImageTask(
      with: Fixtures.request("a.png", size: 16), completion: completions.handler(1))
    proceed.signal()
    await completions.wait(for: 2)
    #expect(completions[1]?.image?.width == 16)
    #expect(pipeline.statistics.decodes == 1)
    #expect(loader.callCount == 1)
  }

  @Test func oneOfTwoCancelsAndTheOtherStillGetsItsImage() async {
    let loader = HeldDataLoader()
    let pipeline = makePipeline(loader)
    let completions = Completions()
    let first = pipeline.startImageTask(
      with: Fixtures.request("a.png", size: 16), completion: completions.handler(0))
    pipeline.startImageTask(
      with: Fixtures.request("a.png", size: 16), completion: completions.handler(1))
    await loader.waitForHeld(1)
    first.cancel()
    await completions.wait(for: 1)
    #expect(completions[0]?.error == .cancelled)
    loader.release(0, with: .success(Fixtures.ok()))
    await completions.wait(for: 2)
    #expect(completions[1]?.image?.width == 16)
    #expect(loader.cancelledCount == 0)
    #expect(pipeline.statistics.downloadsCancelled == 0)
  }

  @Test func cancellingOneSizeKeepsTheSharedDownloadForTheOther() async {
    let loader = HeldDataLoader()
    let pipeline = makePipeline(loader)
    let completions = Completions()
    let small = pipeline.startImageTask(
      with: Fixtures.request("a.png", size: 8), completion: completions.handler(0))
    pipeline.startImageTask(
      with: Fixtures.request("a.png", size: 24), completion: completions.handler(1))
    await loader.waitForHeld(1)
    small.cancel()
    loader.release(0, with: .success(Fixtures.ok()))
    await completions.wait(for: 2)
    #expect(completions[0]?.error == .cancelled)
    #expect(completions[1]?.image?.width == 24)
    #expect(pipeline.statistics.decodes == 1)
  }

  @Test func cancellingAWaitingRequestNeverCallsTheLoader() async {
    let loader = HeldDataLoader()
    let pipeline = makePipeline(loader, downloads: 1)
    let completions = Completions()
    pipeline.startImageTask(with: Fixtures.request("a.png"), completion: completions.handler(0))
    let waiting = pipeline.startImageTask(
      with: Fixtures.request("b.png"), completion: completions.handler(1))
    await loader.waitForHeld(1)
    waiting.cancel()
    loader.release(0, with: .success(Fixtures.ok()))
    await completions.wait(for: 2)
    #expect(loader.requests.map(\.url) == [Fixtures.url("a.png")])
    #expect(completions[1]?.error == .cancelled)
    #expect(pipeline.statistics.downloadsStarted == 1)
  }

  @Test func cancelAfterCompletionChangesNothing() async {
    let loader = HeldDataLoader { _ in .success(Fixtures.ok()) }
    let pipeline = makePipeline(loader)
    let completions = Completions()
    let task = pipeline.startImageTask(
      with: Fixtures.request("a.png"), completion: completions.handler(0))
    await completions.wait(for: 1)
    task.cancel()
    #expect(completions[0]?.image != nil)
    #expect(completions.count == 1)
    #expect(pipeline.statistics.tasksCompleted == 1)
  }

  @Test func cancellingTheSwiftTaskCancelsTheLoad() async {
    let loader = HeldDataLoader()
    let pipeline = makePipeline(loader)
    let task = Task { try await pipeline.image(for: Fixtures.request("a.png")) }
    await loader.waitForHeld(1)
    task.cancel()
    await #expect(throws: ImagePipelineError.cancelled) { try await task.value }
    await loader.wait { $0.cancelled == 1 }
  }

  @MainActor @Test func completionsArriveOnTheMainActorAndACancelledTaskGetsCancelled() async {
    let loader = HeldDataLoader()
    let pipeline = makePipeline(loader)
    let box = MainActorResults()
    let kept = pipeline.loadImage(with: Fixtures.request("a.png", size: 10)) { result in
      MainActor.assertIsolated()
      box.append(result)
    }
    let dropped = pipeline.loadImage(with: Fixtures.request("b.png", size: 10)) { result in
      MainActor.assertIsolated()
      box.append(result)
    }
    await loader.waitForHeld(2)
    dropped.cancel()
    loader.release(url: Fixtures.url("a.png"), with: .success(Fixtures.ok()))
    await box.wait(for: 2)
    #expect(box.results.contains { $0.error == .cancelled })
    #expect(box.results.contains { $0.image?.width == 10 })
    #expect(!kept.isCancelled && dropped.isCancelled)
  }

  @MainActor @Test func cancelRacingASuccessDeliversCancelled() async {
    let loader = HeldDataLoader { _ in .success(Fixtures.ok()) }
    let pipeline = makePipeline(loader)
    let request = Fixtures.request("a.png", size: 10)
    _ = try? await pipeline.image(for: request)  // now a memory hit, delivered asynchronously
    let box = MainActorResults()
    let task = pipeline.loadImage(with: request) { box.append($0) }
    task.cancel()  // before the main actor runs the delivery
    await box.wait(for: 1)
    #expect(box.results.first?.error == .cancelled)
  }
}

/// Results delivered on the main actor, awaited without sleeping.
@MainActor final class MainActorResults {
  private let delivered = WaitableState<[Result<Image, ImagePipelineError>]>([])

  var results: [Result<Image, ImagePipelineError>] { delivered.withLock { $0 } }

  func append(_ result: Result<Image, ImagePipelineError>) {
    delivered.withLock { $0.append(result) }
  }

  /// Returns once `count` results have arrived, or once the task is cancelled.
  func wait(for count: Int) async { await delivered.wait { $0.count >= count } }
}
