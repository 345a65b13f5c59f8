import Foundation
import TesseraTestSupport
import TesseraUtilities
import Testing

@testable import TesseraImages

/// The pipeline with a disk cache: cache policies, HTTP freshness and revalidation, and
/// recovery from a corrupt entry.
@Suite(.timeLimit(.minutes(1))) struct CachePolicyTests {
  private let clock = TestClock()
  private let owned = TemporaryFolder.Owned()
  private var directory: URL { owned.url }

  private func disk() throws -> DiskCache {
    let clock = self.clock
    return try DiskCache(directory: directory, sizeLimit: 1 << 20, now: { clock.now })
  }

  /// A server answering every request with `response`, or 304 when `notModified` says so.
  private func server(
    _ response: DataResponse,
    notModified: @escaping @Sendable (DataRequest) -> Bool = { _ in false }
  ) -> HeldDataLoader {
    HeldDataLoader { request in
      notModified(request)
        ? .success(DataResponse(statusCode: 304, headers: ["Cache-Control": "max-age=60"]))
        : .success(response)
    }
  }

  @Test func useCacheReadsMemoryThenDisk() async throws {
    let loader = server(Fixtures.ok(headers: ["Cache-Control": "max-age=60"]))
    let cache = try disk()
    let pipeline = makePipeline(loader, memory: nil, disk: cache)
    let first = try await pipeline.image(for: Fixtures.request("a.png", size: 16))
    let second = try await pipeline.image(for: Fixtures.request("a.png", size: 16))
    #expect(first == second)
    #expect(loader.callCount == 1)
    #expect(pipeline.statistics.diskHits == 1)
    // Another size of the same URL decodes again from the same stored bytes.
    _ = try await pipeline.image(for: Fixtures.request("a.png", size: 8))
    #expect(loader.callCount == 1)
    #expect(pipeline.statistics.diskHits == 2)
  }

  @Test func reloadIgnoresBothCachesButRefreshesThem() async throws {
    let loader = server(Fixtures.ok())
    let pipeline = makePipeline(loader, disk: try disk())
    let request = Fixtures.request("a.png", size: 16)
    _ = try await pipeline.image(for: request)
    let reload = Fixtures.request("a.png", size: 16, policy: .reload)
    #expect(pipeline.cachedImage(for: reload) == nil)
    _ = try await pipeline.image(for: reload)
    #expect(loader.callCount == 2)
    #expect(pipeline.statistics.diskHits == 0)
    #expect(pipeline.cachedImage(for: request) != nil)
  }

  @Test func onlyFromCacheNeverTouchesTheNetwork() async throws {
    let loader = server(Fixtures.ok(headers: ["Cache-Control": "max-age=60"]))
    let pipeline = makePipeline(loader, memory: nil, disk: try disk())
    let request = Fixtures.request("a.png", size: 16, policy: .onlyFromCache)
    await #expect(throws: ImagePipelineError.notInCache) { try await pipeline.image(for: request) }
    _ = try await pipeline.image(for: Fixtures.request("a.png", size: 16))
    clock.advance(3600)  // stale, yet only-from-cache takes it
    #expect(try await pipeline.image(for: request).width == 16)
    #expect(loader.callCount == 1)
  }

  @Test func onlyFromCacheWithoutDiskCacheFailsOnAMemoryMiss() async {
    let pipeline = makePipeline(server(Fixtures.ok()))
    await #expect(throws: ImagePipelineError.notInCache) {
      try await pipeline.image(for: Fixtures.request("a.png", policy: .onlyFromCache))
    }
  }

  @Test func noStoreResponsesAreNotStored() async throws {
    let loader = server(Fixtures.ok(headers: ["Cache-Control": "no-store"]))
    let cache = try disk()
    let pipeline = makePipeline(loader, memory: nil, disk: cache)
    _ = try await pipeline.image(for: Fixtures.request("a.png"))
    _ = try await pipeline.image(for: Fixtures.request("a.png"))
    #expect(cache.statistics.count == 0)
    #expect(loader.callCount == 2)
  }

  @Test func staleEntryIsRevalidatedWithETagAnd304ReusesTheBytes() async throws {
    let loader = server(
      Fixtures.ok(headers: ["Cache-Control": "max-age=60", "ETag": "\"v1\""]),
      notModified: { $0.ifNoneMatch == "\"v1\"" })
    let cache = try disk()
    let pipeline = makePipeline(loader, memory: nil, disk: cache)
    let request = Fixtures.request("a.png", size: 16)
    _ = try await pipeline.image(for: request)
    clock.advance(30)
    _ = try await pipeline.image(for: request)  // fresh: no request
    #expect(loader.callCount == 1)
    clock.advance(60)
    let revalidated = try await pipeline.image(for: request)
    #expect(revalidated.width == 16)
    #expect(loader.callCount == 2)
    #expect(loader.requests[1].ifNoneMatch == "\"v1\"")
    let statistics = pipeline.statistics
    #expect(statistics.notModifiedResponses == 1)
    #expect(statistics.bytesDownloaded == Fixtures.png.count)
    // The 304's max-age made the entry fresh again.
    clock.advance(30)
    _ = try await pipeline.image(for: request)
    #expect(loader.callCount == 2)
  }

  @Test func lastModifiedIsSentAsIfModifiedSince() async throws {
    let modified = HTTPDate.format(clock.now.addingTimeInterval(-100))
    let loader = server(
      Fixtures.ok(headers: ["Cache-Control": "no-cache", "Last-Modified": modified]),
      notModified: { $0.ifModifiedSince == modified })
    let pipeline = makePipeline(loader, memory: nil, disk: try disk())
    _ = try await pipeline.image(for: Fixtures.request("a.png"))
    _ = try await pipeline.image(for: Fixtures.request("a.png"))
    #expect(loader.requests.map(\.isConditional) == [false, true])
    #expect(pipeline.statistics.notModifiedResponses == 1)
  }

  @Test func staleEntryWithoutValidatorsIsDownloadedAgain() async throws {
    let loader = server(Fixtures.ok(headers: ["Cache-Control": "max-age=10"]))
    let pipeline = makePipeline(loader, memory: nil, disk: try disk())
    _ = try await pipeline.image(for: Fixtures.request("a.png"))
    clock.advance(20)
    _ = try await pipeline.image(for: Fixtures.request("a.png"))
    #expect(loader.requests.map(\.isConditional) == [false, false])
  }

  @Test func corruptDiskEntryIsReloadedFromTheNetwork() async throws {
    let loader = server(Fixtures.ok(headers: ["Cache-Control": "max-age=600"]))
    let cache = try disk()
    let pipeline = makePipeline(loader, memory: nil, disk: cache)
    _ = try await pipeline.image(for: Fixtures.request("a.png"))
    let file = cache.fileURL(for: Fixtures.url("a.png").absoluteString)
    var bytes = try Data(contentsOf: file)
    bytes[bytes.count - 10] ^= 0x55
    try bytes.write(to: file)
    let image = try await pipeline.image(for: Fixtures.request("a.png"))
    #expect(image.size == PixelSize(width: 64, height: 48))
    #expect(loader.callCount == 2)
    #expect(cache.statistics.corruptEntriesRemoved == 1)
    #expect(cache.contains(Fixtures.url("a.png").absoluteString))  // stored again
  }

  @Test func diskCacheSurvivesANewPipeline() async throws {
    let loader = server(Fixtures.ok(headers: ["Cache-Control": "max-age=600"]))
    _ = try await makePipeline(loader, memory: nil, disk: try disk()).image(
      for: Fixtures.request("a.png"))
    let restarted = makePipeline(loader, memory: nil, disk: try disk())
    _ = try await restarted.image(for: Fixtures.request("a.png"))
    #expect(loader.callCount == 1)
    #expect(restarted.statistics.diskHits == 1)
  }
}
