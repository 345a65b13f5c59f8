import Foundation
import TesseraTestSupport
import Testing

@testable import TesseraImages

@Suite(.timeLimit(.minutes(1))) struct PrefetcherTests {
  @Test func prefetchesAtLowPriorityIntoMemoryAndVisibleRequestsJoinIt() async {
    let loader = HeldDataLoader()
    let pipeline = makePipeline(loader)
    let finished = Collector<ImagePipelineError?>()
    let prefetcher = ImagePrefetcher(pipeline: pipeline) { finished.handler(0)($1) }
    let request = Fixtures.request("a.png", size: 16)
    prefetcher.startPrefetching(with: [request])
    prefetcher.startPrefetching(with: [request])  // already running: nothing new
    await loader.waitForHeld(1)
    #expect(loader.requests.first?.priority == .low)
    #expect(prefetcher.activeCount == 1)
    let visible = Completions()
    pipeline.startImageTask(with: request, completion: visible.handler(0))
    #expect(pipeline.statistics.coalescedJoins == 1)
    loader.release(0, with: .success(Fixtures.ok()))
    await visible.wait(for: 1)
    await finished.wait(for: 1)
    #expect(visible[0]?.image?.width == 16)
    #expect(pipeline.cachedImage(for: request) != nil)
    #expect(prefetcher.activeCount == 0)
    #expect(loader.callCount == 1)
    prefetcher.startPrefetching(with: [request])  // cached: nothing to do
    #expect(prefetcher.activeCount == 0)
  }

  @Test func stoppingCancelsOnlyWhatNobodyElseNeeds() async {
    let loader = HeldDataLoader()
    let pipeline = makePipeline(loader)
    let prefetcher = ImagePrefetcher(pipeline: pipeline)
    let shared = Fixtures.request("shared.png", size: 16)
    let alone = Fixtures.request("alone.png", size: 16)
    prefetcher.startPrefetching(with: [shared, alone])
    let visible = Completions()
    pipeline.startImageTask(with: shared, completion: visible.handler(0))
    await loader.waitForHeld(2)
    prefetcher.stopPrefetching(with: [shared, alone])
    await loader.wait { $0.cancelled == 1 }
    #expect(prefetcher.activeCount == 0)
    loader.release(url: shared.url, with: .success(Fixtures.ok()))
    await visible.wait(for: 1)
    #expect(visible[0]?.image != nil)
    #expect(pipeline.statistics.downloadsCancelled == 1)
  }

  @Test func diskDestinationStoresBytesWithoutDecoding() async throws {
    let loader = HeldDataLoader { _ in
      .success(Fixtures.ok(headers: ["Cache-Control": "max-age=60"]))
    }
    let directory = TemporaryFolder.make()
    defer { try? FileManager.default.removeItem(at: directory) }
    let disk = try DiskCache(directory: directory)
    let pipeline = makePipeline(loader, disk: disk)
    let finished = Collector<ImagePipelineError?>()
    let prefetcher = ImagePrefetcher(pipeline: pipeline, destination: .diskCache) {
      finished.handler(0)($1)
    }
    let request = Fixtures.request("a.png", size: 16)
    prefetcher.startPrefetching(with: [request])
    await finished.wait(for: 1)
    #expect(finished[0] == .some(nil))
    #expect(disk.contains(request.url.absoluteString))
    #expect(pipeline.cachedImage(for: request) == nil)
    #expect(pipeline.statistics.decodes == 0)
    _ = try await pipeline.image(for: request)
    #expect(loader.callCount == 1)
    #expect(pipeline.statistics.diskHits == 1)
  }

  @Test func stopPrefetchingAllCancelsEverything() async {
    let loader = HeldDataLoader()
    let pipeline = makePipeline(loader, downloads: 2)
    let prefetcher = ImagePrefetcher(pipeline: pipeline)
    prefetcher.startPrefetching(with: (0..<5).map { Fixtures.request("\($0).png") })
    await loader.waitForHeld(2)
    prefetcher.stopPrefetching()
    await loader.wait { $0.cancelled == 2 }
    #expect(prefetcher.activeCount == 0)
    #expect(loader.callCount == 2)
    #expect(pipeline.statistics.tasksInFlight == 0)
  }
}
