import Foundation
import TesseraTestSupport
import TesseraUtilities
import Testing

@testable import TesseraImages
@testable import TesseraURLSession

/// The two HTTP data loaders, for tests that must hold for both.
enum LoaderKind: String, CaseIterable, Sendable {
  case urlSession
  case asyncHTTPClient

  func make() -> any DataLoading {
    switch self {
    case .urlSession: URLSessionDataLoader()
    case .asyncHTTPClient: AsyncHTTPClientDataLoader()
    }
  }
}

/// The pipeline over real HTTP: each data loader against a Hummingbird server on 127.0.0.1.
@Suite(.timeLimit(.minutes(1))) struct HTTPIntegrationTests {
  @Test(arguments: LoaderKind.allCases)
  func loadsDecodesCachesAndRevalidatesOverHTTP(_ kind: LoaderKind) async throws {
    try await LoopbackServer.run { base, served in
      let directory = TemporaryFolder.make()
      defer { try? FileManager.default.removeItem(at: directory) }
      let pipeline = ImagePipeline(
        configuration: .init(
          dataLoader: kind.make(), memoryCache: MemoryCache(costLimit: 1 << 20),
          diskCache: try DiskCache(directory: directory)))
      let request = ImageRequest(
        url: try #require(URL(string: "\(base)/photo.jpg")),
        targetSize: PixelSize(width: 60, height: 60))
      let response = try await pipeline.imageTask(with: request).response
      #expect(response.origin == .network)
      #expect(response.image.size == PixelSize(width: 60, height: 40))
      #expect(response.image.originalSize == PixelSize(width: 300, height: 200))
      // Another size: memory misses, the disk entry is stale (max-age=0) → 304 → same bytes.
      let small = ImageRequest(url: request.url, targetSize: PixelSize(width: 30, height: 30))
      let revalidated = try await pipeline.imageTask(with: small).response
      #expect(revalidated.image.width == 30)
      #expect(revalidated.origin == .diskCache)
      #expect(served.withLock { $0 } == ["200", "304"])
      #expect(pipeline.statistics.notModifiedResponses == 1)
      #expect(try await pipeline.imageTask(with: small).response.origin == .memoryCache)
    }
  }

  /// A request's header fields reach the server through either loader, and a request
  /// modifier's token too.
  @Test(arguments: LoaderKind.allCases)
  func headersAndARequestModifierReachTheServer(_ kind: LoaderKind) async throws {
    try await LoopbackServer.run { base, served in
      let url = try #require(URL(string: "\(base)/private.jpg"))
      let plain = ImagePipeline(configuration: .init(dataLoader: kind.make(), memoryCache: nil))
      await #expect(throws: ImagePipelineError.badStatus(401)) {
        try await plain.image(for: url)
      }
      let request = ImageRequest(url: url, headers: ["Authorization": "Bearer s3cret"])
      #expect(try await plain.image(for: request).size == PixelSize(width: 300, height: 200))
      let modified = ImagePipeline(
        configuration: .init(
          dataLoader: kind.make(), memoryCache: nil,
          requestModifier: { request in
            var signed = request
            signed.headers["Authorization"] = "Bearer s3cret"
            return signed
          }))
      #expect(try await modified.image(for: url).width == 300)
      #expect(served.withLock { $0 } == ["401", "200 private", "200 private"])
    }
  }

  @Test(arguments: LoaderKind.allCases)
  func httpErrorsAreTyped(_ kind: LoaderKind) async throws {
    try await LoopbackServer.run { base, _ in
      let pipeline = ImagePipeline(
        configuration: .init(dataLoader: kind.make(), maxResponseBytes: 100_000))
      func error(_ path: String) async -> ImagePipelineError? {
        guard let url = URL(string: base + path) else { return nil }
        do {
          _ = try await pipeline.image(for: url)
          return nil
        } catch {
          return error
        }
      }
      #expect(await error("/missing.jpg") == .badStatus(404))
      #expect(await error("/text") == .notAnImage(contentType: "text/plain; charset=utf-8"))
      #expect(await error("/big.jpg") == .tooLarge(.bytes(300_000, limit: 100_000)))
    }
  }

  /// Each loader reports the body as it arrives, against Content-Length when there is one.
  @Test(arguments: LoaderKind.allCases)
  func loadersReportProgressAsTheBodyArrives(_ kind: LoaderKind) async throws {
    try await LoopbackServer.run { base, _ in
      let loader = kind.make()
      for (path, size, total) in [
        ("/big.jpg", 300_000, 300_000 as Int?),
        ("/stream.jpg", LoopbackServer.streamChunk * LoopbackServer.streamChunks, nil),
      ] {
        let url = try #require(URL(string: base + path))
        let seen = Locked<[ImageTask.Progress]>([])
        let response = try await loader.loadData(for: DataRequest(url: url)) {
          completed, total in
          seen.withLock { $0.append(ImageTask.Progress(completed: completed, total: total)) }
        }
        let progress = seen.withLock { $0 }
        #expect(response.data.count == size)
        #expect(progress.last == ImageTask.Progress(completed: size, total: total), "\(path)")
        #expect(zip(progress, progress.dropFirst()).allSatisfy { $0.completed < $1.completed })
      }
    }
  }

  @Test func silentServerTimesOutThroughURLSession() async throws {
    let listener = try #require(Listener())
    defer { listener.close() }
    let url = try #require(URL(string: "http://127.0.0.1:\(listener.port)/slow.jpg"))
    await #expect(throws: ImagePipelineError.timedOut) {
      try await URLSessionDataLoader(requestTimeout: 1).loadData(
        for: DataRequest(url: url, timeout: 1))
    }
  }

  @Test(arguments: LoaderKind.allCases)
  func refusedConnectionIsANetworkError(_ kind: LoaderKind) async throws {
    let port = try #require(Listener()).closeReturningPort()
    let url = try #require(URL(string: "http://127.0.0.1:\(port)/a.jpg"))
    do {
      _ = try await kind.make().loadData(for: DataRequest(url: url, timeout: 5))
      Issue.record("expected a network error")
    } catch {
      guard case .networkFailed = error else {
        Issue.record("expected networkFailed, got \(error)")
        return
      }
    }
  }

  @Test func fileURLsLoadFromDiskForALocalFolderRequest() async throws {
    let directory = TemporaryFolder.make()
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("a.png")
    try Fixtures.png.write(to: file)
    let pipeline = ImagePipeline(
      configuration: .init(dataLoader: URLSessionDataLoader(), thumbnailCache: nil))
    let response = try await pipeline.imageTask(
      with: ImageRequest(
        url: file, targetSize: PixelSize(width: 32, height: 32), source: .localFolder)
    ).response
    #expect(response.image.size == PixelSize(width: 32, height: 24))
    #expect(response.origin == .localFile)
    let missing = directory.appendingPathComponent("none.png")
    await #expect(throws: ImagePipelineError.fileRefused(path: missing.path, .notFound)) {
      try await pipeline.image(for: ImageRequest(url: missing, source: .localFolder))
    }
  }

  /// The HTTP loaders are not a way around the pipeline's scheme rule.
  @Test(arguments: LoaderKind.allCases)
  func theHTTPLoadersRefuseFileURLs(_ kind: LoaderKind) async throws {
    let directory = TemporaryFolder.make()
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("a.png")
    try Fixtures.png.write(to: file)
    await #expect(
      throws: ImagePipelineError.schemeNotAllowed(url: file.absoluteString, source: .network)
    ) {
      try await kind.make().loadData(for: DataRequest(url: file))
    }
  }

  /// Foundation's URLCache would keep a second copy of every image on disk beside ours (and
  /// answer 304s itself, which the disk cache must see).
  @Test func theURLSessionLoaderHasNoURLCache() {
    let configuration = URLSessionDataLoader().sessionConfiguration
    #expect(configuration.urlCache == nil)
    #expect(configuration.requestCachePolicy == .reloadIgnoringLocalCacheData)
  }
}
