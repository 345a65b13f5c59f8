import Foundation
import TesseraUtilities
import Testing

@testable import TesseraImages

/// The async face of a load: `imageTask(with:)`, `image` / `response` awaited any number of
/// times, cancellation through the awaiting Swift task, and progress streams.
@Suite(.timeLimit(.minutes(1))) struct ImageTaskTests {
  @Test func awaitingTwiceGivesTheSameResponseAndLoadsOnce() async throws {
    let loader = HeldDataLoader()
    let pipeline = makePipeline(loader)
    let task = pipeline.imageTask(with: Fixtures.request("a.png", size: 16))
    async let first = task.response
    async let second = task.image
    await loader.waitForHeld(1)
    loader.release(0, with: .success(Fixtures.ok()))
    let response = try await first
    #expect(try await second == response.image)
    #expect(try await task.response == response)  // once more, after completion
    #expect(response.origin == .network)
    #expect(response.url == Fixtures.url("a.png"))
    #expect(loader.callCount == 1)
  }

  @Test func aFailureIsThrownToEveryAwaiter() async {
    let loader = HeldDataLoader { _ in .success(DataResponse(statusCode: 500)) }
    let task = makePipeline(loader).imageTask(with: Fixtures.request("a.png"))
    await #expect(throws: ImagePipelineError.badStatus(500)) { try await task.image }
    await #expect(throws: ImagePipelineError.badStatus(500)) { try await task.response }
  }

  @Test func aMemoryHitIsAnsweredWithItsOrigin() async throws {
    let loader = HeldDataLoader { _ in .success(Fixtures.ok()) }
    let pipeline = makePipeline(loader)
    let request = Fixtures.request("a.png", size: 16)
    #expect(try await pipeline.imageTask(with: request).response.origin == .network)
    let hit = pipeline.imageTask(with: request)
    #expect(try await hit.response.origin == .memoryCache)
    var updates = 0
    for await _ in hit.progress { updates += 1 }  // already complete: the stream is empty
    #expect(updates == 0)
    #expect(loader.callCount == 1)
  }

  @Test func theURLOverloadsLoadTheOriginalSize() async throws {
    let loader = HeldDataLoader { _ in .success(Fixtures.ok()) }
    let pipeline = makePipeline(loader)
    let image = try await pipeline.image(for: Fixtures.url("a.png"))
    #expect(image.size == PixelSize(width: 64, height: 48))
    let task = pipeline.imageTask(with: Fixtures.url("a.png"))
    #expect(task.request == ImageRequest(url: Fixtures.url("a.png")))
    #expect(try await task.image == image)
  }

  /// Cancelling the Swift task that awaits `image` cancels the image task, and with it the
  /// download nobody else wants; every other awaiter is told `.cancelled`.
  @Test func cancellingTheAwaitingTaskCancelsTheLoad() async {
    let loader = HeldDataLoader()
    let pipeline = makePipeline(loader)
    let imageTask = pipeline.imageTask(with: Fixtures.request("a.png"))
    let awaiting = Task { try await imageTask.image }
    await loader.waitForHeld(1)
    awaiting.cancel()
    await #expect(throws: ImagePipelineError.cancelled) { try await awaiting.value }
    await loader.wait { $0.cancelled == 1 }
    #expect(imageTask.isCancelled)
    await #expect(throws: ImagePipelineError.cancelled) { try await imageTask.response }
    #expect(pipeline.statistics.downloadsCancelled == 1)
  }

  /// A task already cancelled when it starts awaiting cancels the load at once.
  @Test func awaitingFromACancelledTaskCancels() async {
    let loader = HeldDataLoader()
    let pipeline = makePipeline(loader)
    let imageTask = pipeline.imageTask(with: Fixtures.request("a.png"))
    await loader.waitForHeld(1)
    let awaiting = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      return try await imageTask.image
    }
    await #expect(throws: ImagePipelineError.cancelled) { try await awaiting.value }
    await loader.wait { $0.cancelled == 1 }
  }

  /// The loader's reports reach every task waiting for the download, in order, and the
  /// stream ends when the task completes.
  @Test func progressFollowsTheDownloadAndEndsWithTheTask() async throws {
    let loader = HeldDataLoader()
    let pipeline = makePipeline(loader)
    let task = pipeline.imageTask(with: Fixtures.request("a.png", size: 16))
    let other = pipeline.imageTask(with: Fixtures.request("a.png", size: 8))  // same download
    let stream = task.progress
    let otherStream = other.progress
    await loader.waitForHeld(1)
    loader.reportProgress(0, completed: 100, total: 400)
    loader.reportProgress(0, completed: 400, total: 400)
    loader.release(0, with: .success(Fixtures.ok()))
    _ = try await task.image
    _ = try await other.image
    var seen: [ImageTask.Progress] = []
    for await update in stream { seen.append(update) }
    #expect(
      seen == [
        ImageTask.Progress(completed: 100, total: 400),
        ImageTask.Progress(completed: 400, total: 400),
      ])
    #expect(seen.map(\.fraction) == [0.25, 1])
    var otherSeen = 0
    for await _ in otherStream { otherSeen += 1 }
    #expect(otherSeen == 2)
  }

  /// A loader's numbers come from a server: a negative count, or a total below what has
  /// arrived, is clamped before the task sees it.
  @Test func forgedProgressIsClamped() async throws {
    let loader = HeldDataLoader()
    let pipeline = makePipeline(loader)
    let task = pipeline.imageTask(with: Fixtures.request("a.png"))
    let stream = task.progress
    await loader.waitForHeld(1)
    loader.reportProgress(0, completed: -5, total: -9)
    loader.reportProgress(0, completed: 500, total: 10)
    loader.release(0, with: .success(Fixtures.ok()))
    _ = try await task.image
    var seen: [ImageTask.Progress] = []
    for await update in stream { seen.append(update) }
    #expect(
      seen == [
        ImageTask.Progress(completed: 0, total: 0),
        ImageTask.Progress(completed: 500, total: 500),
      ])
    #expect(seen.first?.fraction == nil)
  }

  /// `ImagePipeline.shared` is made once with the defaults, and can be replaced.
  @Test func theSharedPipelineHasTheDefaultsAndCanBeReplaced() {
    let original = ImagePipeline.shared
    #expect(ImagePipeline.shared === original)
    #expect(original.memoryCache != nil)
    #expect(original.configuration.dataLoader is SharedHTTPLoader)
    let replacement = makePipeline(HeldDataLoader())
    ImagePipeline.shared = replacement
    #expect(ImagePipeline.shared === replacement)
    ImagePipeline.shared = original
    #expect(ImagePipeline.shared === original)
  }
}
