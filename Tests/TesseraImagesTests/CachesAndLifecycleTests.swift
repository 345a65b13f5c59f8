import Foundation
import Logging
import ServiceLifecycle
import TesseraTestSupport
import TesseraUtilities
import Testing

@testable import TesseraImages

/// `pipeline.cache[request]`, caches that stand in for the pipeline's own, and its end.
@Suite(.timeLimit(.minutes(1))) struct CachesAndLifecycleTests {
  private let owned = TemporaryFolder.Owned()

  /// A dictionary as the memory cache, counting what it is asked.
  final class CountingImages: ImageCaching, @unchecked Sendable {
    private let images = Locked<[MemoryCacheKey: Image]>([:])
    let reads = Locked(0)
    func image(for key: MemoryCacheKey) -> Image? {
      reads.withLock { $0 += 1 }
      return images.withLock { $0[key] }
    }
    func store(_ image: Image, for key: MemoryCacheKey) { images.withLock { $0[key] = image } }
    func removeImage(for key: MemoryCacheKey) { images.withLock { $0[key] = nil } }
    func removeAll() { images.withLock { $0.removeAll() } }
    func contains(_ key: MemoryCacheKey) -> Bool { images.withLock { $0[key] != nil } }
  }

  /// A dictionary as the disk cache.
  final class DictionaryData: DataCaching, @unchecked Sendable {
    private let entries = Locked<[String: DiskCacheEntry]>([:])
    func entry(for key: String) -> DiskCacheEntry? { entries.withLock { $0[key] } }
    func store(_ data: Data, metadata: HTTPCacheMetadata, for key: String) -> Bool {
      entries.withLock { $0[key] = DiskCacheEntry(key: key, data: data, metadata: metadata) }
      return true
    }
    func removeEntry(for key: String) { entries.withLock { $0[key] = nil } }
    func removeAll() { entries.withLock { $0.removeAll() } }
    func contains(_ key: String) -> Bool { entries.withLock { $0[key] != nil } }
    var currentDate: Date { Date() }
  }

  @Test func standInCachesServeThePipeline() async throws {
    let loader = HeldDataLoader { _ in
      .success(Fixtures.ok(headers: ["Cache-Control": "max-age=600"]))
    }
    let images = CountingImages()
    let data = DictionaryData()
    let pipeline = makePipeline(loader, memory: images, disk: data)
    let request = Fixtures.request("a.png", size: 16)
    _ = try await pipeline.image(for: request)
    #expect(data.contains(Fixtures.url("a.png").absoluteString))
    #expect(try await pipeline.imageTask(with: request).response.origin == .memoryCache)
    #expect(images.reads.withLock { $0 } >= 1)
    images.removeAll()
    #expect(try await pipeline.imageTask(with: request).response.origin == .diskCache)
    #expect(loader.callCount == 1)
  }

  @Test func theCacheByRequestReadsStoresAndRemoves() async throws {
    let loader = HeldDataLoader { _ in .success(Fixtures.ok()) }
    let disk = try DiskCache(directory: owned.url, sizeLimit: 1 << 20)
    let pipeline = makePipeline(loader, disk: disk)
    let request = Fixtures.request("made-here.png", size: 16)
    #expect(pipeline.cache[request] == nil)
    let made = try ImageDecoder().decode(Fixtures.png, targetSize: PixelSize(width: 16, height: 16))
    pipeline.cache[request] = made
    #expect(try await pipeline.imageTask(with: request).response.image == made)
    #expect(loader.callCount == 0)
    // Bytes stored by hand are what a later load decodes, without the network.
    #expect(pipeline.cache.storeData(Fixtures.otherPNG, for: request))
    #expect(pipeline.cache.data(for: request) == Fixtures.otherPNG)
    pipeline.cache[request] = nil
    let fromDisk = try await pipeline.imageTask(with: request).response
    #expect(fromDisk.origin == .diskCache)
    #expect(fromDisk.image.originalSize == PixelSize(width: 30, height: 60))
    pipeline.cache.remove(request)
    #expect(pipeline.cache[request] == nil && pipeline.cache.data(for: request) == nil)
    _ = try await pipeline.image(for: request)
    #expect(loader.callCount == 1)
  }

  /// A loader that is told when it is shut down.
  final class ShutDownLoader: DataLoading, @unchecked Sendable {
    let inner: HeldDataLoader
    let shutDowns = Locked(0)
    init(_ inner: HeldDataLoader) { self.inner = inner }
    func loadData(for request: DataRequest) async throws(ImagePipelineError) -> DataResponse {
      try await inner.loadData(for: request)
    }
    func shutdown() async { shutDowns.withLock { $0 += 1 } }
  }

  @Test func shutdownFailsWhatRunsAndWhatComesAndReleasesTheLoader() async throws {
    let held = HeldDataLoader()  // holds every load until released
    let loader = ShutDownLoader(held)
    let pipeline = makePipeline(loader)
    let waiting = pipeline.imageTask(with: Fixtures.request("a.png", size: 16))
    await held.waitForHeld(1)
    await pipeline.shutdown()
    let result = await Result { () async throws(ImagePipelineError) in try await waiting.image }
    guard case .failure(.shutDown) = result else {
      Issue.record("a running load ended with \(result)")
      return
    }
    await #expect(throws: ImagePipelineError.shutDown) {
      try await pipeline.image(for: Fixtures.request("b.png", size: 16))
    }
    #expect(loader.shutDowns.withLock { $0 } == 1)
  }

  @Test func theAsyncHTTPClientLoaderShutsItsClientDownOnce() async throws {
    let loader = AsyncHTTPClientDataLoader()
    await loader.shutdown()
    await loader.shutdown()  // a second call is harmless
    let result = await Result { () async throws(ImagePipelineError) in
      try await loader.loadData(for: DataRequest(url: Fixtures.url("a.png")))
    }
    guard case .failure = result else {
      Issue.record("a shut-down client loaded")
      return
    }
  }

  @Test func asAServiceThePipelineEndsWithItsGroup() async throws {
    let loader = ShutDownLoader(HeldDataLoader { _ in .success(Fixtures.ok()) })
    let pipeline = makePipeline(loader)
    let group = ServiceGroup(
      services: [ImagePipelineService(pipeline)], logger: Logger(label: "test"))
    let running = Task { try await group.run() }
    _ = try await pipeline.image(for: Fixtures.request("a.png", size: 16))
    await group.triggerGracefulShutdown()
    try await running.value
    #expect(loader.shutDowns.withLock { $0 } == 1)
    await #expect(throws: ImagePipelineError.shutDown) {
      try await pipeline.image(for: Fixtures.request("b.png", size: 16))
    }
  }
}
