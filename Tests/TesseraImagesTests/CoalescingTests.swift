import Foundation
import Testing

@testable import TesseraImages

@Suite(.timeLimit(.minutes(1))) struct CoalescingTests {
  @Test func hundredIdenticalRequestsShareOneLoadAndOneDecode() async {
    let loader = HeldDataLoader()
    let pipeline = makePipeline(loader)
    let completions = Completions()
    for tag in 0..<100 {
      pipeline.startImageTask(
        with: Fixtures.request("a.png", size: 32), completion: completions.handler(tag))
    }
    await loader.waitForHeld(1)
    loader.release(0, with: .success(Fixtures.ok()))
    await completions.wait(for: 100)
    #expect(loader.callCount == 1)
    let statistics = pipeline.statistics
    #expect(statistics.decodes == 1)
    #expect(statistics.coalescedJoins == 99)
    #expect(statistics.downloadsStarted == 1)
    #expect(statistics.tasksInFlight == 0)
    #expect(completions.all.allSatisfy { $0.image?.width == 32 })
  }

  @Test func sameURLOtherSizeSharesTheDownloadNotTheDecode() async {
    let loader = HeldDataLoader()
    let pipeline = makePipeline(loader)
    let completions = Completions()
    pipeline.startImageTask(
      with: Fixtures.request("a.png", size: 32), completion: completions.handler(0))
    pipeline.startImageTask(
      with: Fixtures.request("a.png", size: 16), completion: completions.handler(1))
    await loader.waitForHeld(1)
    loader.release(0, with: .success(Fixtures.ok()))
    await completions.wait(for: 2)
    #expect(loader.callCount == 1)
    #expect(pipeline.statistics.decodes == 2)
    #expect(pipeline.statistics.sharedDownloads == 1)
    #expect(completions[0]?.image?.width == 32)
    #expect(completions[1]?.image?.width == 16)
    // Both keep the source's size for layouts: 64x48.
    #expect(completions[1]?.image?.originalSize == PixelSize(width: 64, height: 48))
  }

  @Test func distinctURLsLoadSeparately() async {
    let loader = HeldDataLoader { _ in .success(Fixtures.ok()) }
    let pipeline = makePipeline(loader)
    let completions = Completions()
    for tag in 0..<5 {
      pipeline.startImageTask(
        with: Fixtures.request("\(tag).png", size: 8), completion: completions.handler(tag))
    }
    await completions.wait(for: 5)
    #expect(loader.callCount == 5)
    #expect(pipeline.statistics.decodes == 5)
    #expect(pipeline.statistics.coalescedJoins == 0)
  }

  @Test func secondLoadIsServedFromMemory() async throws {
    let loader = HeldDataLoader { _ in .success(Fixtures.ok()) }
    let pipeline = makePipeline(loader)
    let request = Fixtures.request("a.png", size: 20)
    #expect(pipeline.cachedImage(for: request) == nil)
    let first = try await pipeline.image(for: request)
    let cached = try #require(pipeline.cachedImage(for: request))
    #expect(cached == first)
    let second = try await pipeline.image(for: request)
    #expect(second == first)
    #expect(loader.callCount == 1)
    #expect(pipeline.statistics.memoryHits == 2)
  }
}
