import Foundation
import TesseraTestSupport
import TesseraUtilities
import Testing

@testable import TesseraImages

/// A request's header fields, its image id in place of the URL in every cache key, the
/// pipeline's request modifier and the per-layer cache options.
@Suite(.timeLimit(.minutes(1))) struct RequestOptionsTests {
  private let owned = TemporaryFolder.Owned()

  private func answering() -> HeldDataLoader { HeldDataLoader { _ in .success(Fixtures.ok()) } }

  private func request(
    _ url: String = "a.png", headers: [String: String] = [:], imageID: String? = nil,
    options: ImageRequest.Options = []
  ) -> ImageRequest {
    ImageRequest(
      url: Fixtures.url(url), targetSize: PixelSize(width: 16, height: 16), headers: headers,
      imageID: imageID, options: options)
  }

  @Test func headersReachTheLoaderButAreNoPartOfTheImagesIdentity() async throws {
    let loader = answering()
    let pipeline = makePipeline(loader)
    _ = try await pipeline.image(for: request(headers: ["Authorization": "Bearer a"]))
    #expect(loader.requests.first?.headers == ["Authorization": "Bearer a"])
    _ = try await pipeline.image(for: request(headers: ["Authorization": "Bearer b"]))
    #expect(loader.callCount == 1)  // the same image: from memory
  }

  @Test(arguments: [
    ["Bad Name": "x"], ["X-Token": "a\r\nInjected: yes"], ["Host": "elsewhere.test"],
    ["": "x"], ["X-Nul": "a\u{0}b"],
  ])
  func headersHTTPDoesNotAllowFailBeforeAnyIO(_ headers: [String: String]) async {
    let loader = answering()
    let pipeline = makePipeline(loader)
    let result = await Result { () async throws(ImagePipelineError) in
      try await pipeline.image(for: request(headers: headers))
    }
    guard case .failure(.invalidRequest(let problem)) = result else {
      Issue.record("expected invalidRequest, got \(result)")
      return
    }
    #expect(!problem.isEmpty)
    #expect(loader.callCount == 0)
  }

  @Test func tooManyOrTooLongHeadersAreRefused() {
    let many = Dictionary(uniqueKeysWithValues: (0...64).map { ("X-\($0)", "v") })
    #expect(HTTPHeaderFields.problem(with: many) != nil)
    #expect(HTTPHeaderFields.problem(with: ["X": String(repeating: "v", count: 9_000)]) != nil)
    #expect(
      HTTPHeaderFields.problem(with: ["Authorization": "Bearer a\tb", "Cookie": "k=v"]) == nil)
  }

  @Test func presignedURLsOfOneImageIDShareTheDownloadAndTheCaches() async throws {
    let loader = answering()
    let disk = try DiskCache(directory: owned.url, sizeLimit: 1 << 20)
    let first = makePipeline(loader, disk: disk)
    _ = try await first.image(for: request("a.png?sig=1", imageID: "photo-1"))
    _ = try await first.image(for: request("a.png?sig=2", imageID: "photo-1"))
    #expect(loader.callCount == 1)
    #expect(first.cachedImage(for: request("a.png?sig=3", imageID: "photo-1")) != nil)
    #expect(first.cachedImage(for: request("a.png?sig=3")) == nil)
    // A pipeline without the memory: the disk holds the bytes under the id.
    let second = makePipeline(loader, memory: nil, disk: disk)
    let response = try await second.imageTask(with: request("a.png?sig=4", imageID: "photo-1"))
      .response
    #expect(response.origin == .diskCache)
    #expect(loader.callCount == 1)
  }

  @Test func theRequestModifierRunsOnEachDownloadAndKeepsTheRules() async throws {
    let loader = answering()
    let calls = Locked(0)
    var configuration = ImagePipeline.Configuration(
      dataLoader: loader, memoryCache: nil, thumbnailCache: nil,
      requestModifier: { request in
        let call = calls.withLock { count in
          count += 1
          return count
        }
        var signed = request
        signed.headers["Authorization"] = "Bearer token-\(call)"
        return signed
      })
    configuration.clock = ManualClock()
    let pipeline = ImagePipeline(configuration: configuration)
    _ = try await pipeline.image(for: request())
    _ = try await pipeline.image(for: request())
    #expect(
      loader.requests.map { $0.headers["Authorization"] } == ["Bearer token-1", "Bearer token-2"])
    // A modifier may not turn a download into a file read, nor inject a field; its own
    // error fails the load.
    #expect(
      await refusal(by: Self.toFile, loader)
        == .schemeNotAllowed(url: "file:///etc/passwd", source: .network))
    guard case .invalidRequest? = await refusal(by: Self.injecting, loader) else {
      Issue.record("an injected header field was sent")
      return
    }
    #expect(await refusal(by: Self.failing, loader) == .networkFailed("no token"))
  }

  private static func toFile(_ request: DataRequest) throws(ImagePipelineError) -> DataRequest {
    var changed = request
    changed.url = URL(fileURLWithPath: "/etc/passwd")
    return changed
  }

  private static func injecting(_ request: DataRequest) throws(ImagePipelineError) -> DataRequest {
    var changed = request
    changed.headers["X"] = "a\nB: c"
    return changed
  }

  private static func failing(_ request: DataRequest) throws(ImagePipelineError) -> DataRequest {
    throw .networkFailed("no token")
  }

  /// The error a load fails with through `modifier`, which must not reach the loader.
  private func refusal(
    by modifier: @escaping @Sendable (DataRequest) throws(ImagePipelineError) -> DataRequest,
    _ loader: HeldDataLoader
  ) async -> ImagePipelineError? {
    var configuration = ImagePipeline.Configuration(
      dataLoader: loader, memoryCache: nil, thumbnailCache: nil,
      requestModifier: { request async throws(ImagePipelineError) in try modifier(request) })
    configuration.clock = ManualClock()
    let before = loader.callCount
    let result = await Result { () async throws(ImagePipelineError) in
      try await ImagePipeline(configuration: configuration).image(for: request())
    }
    #expect(loader.callCount == before)
    guard case .failure(let error) = result else { return nil }
    return error
  }

  @Test func memoryOptionsSkipReadingOrWritingTheMemoryCache() async throws {
    let loader = answering()
    let pipeline = makePipeline(loader)
    _ = try await pipeline.image(for: request(options: .disableMemoryCacheWrites))
    #expect(pipeline.cachedImage(for: request()) == nil)
    _ = try await pipeline.image(for: request())
    #expect(loader.callCount == 2)
    #expect(pipeline.cachedImage(for: request()) != nil)
    #expect(pipeline.cachedImage(for: request(options: .disableMemoryCacheReads)) == nil)
    _ = try await pipeline.image(for: request(options: .disableMemoryCacheReads))
    #expect(loader.callCount == 3)
  }

  @Test func diskOptionsSkipReadingOrWritingTheDiskCache() async throws {
    let loader = HeldDataLoader { _ in
      .success(Fixtures.ok(headers: ["Cache-Control": "max-age=600"]))
    }
    let disk = try DiskCache(directory: owned.url, sizeLimit: 1 << 20)
    let pipeline = makePipeline(loader, memory: nil, disk: disk)
    _ = try await pipeline.image(for: request(options: .disableDiskCacheWrites))
    #expect(disk.entry(for: Fixtures.url("a.png").absoluteString) == nil)
    _ = try await pipeline.image(for: request())
    #expect(disk.entry(for: Fixtures.url("a.png").absoluteString) != nil)
    #expect(loader.callCount == 2)
    // A fresh entry, yet the bytes are downloaded again.
    _ = try await pipeline.image(for: request(options: .disableDiskCacheReads))
    #expect(loader.callCount == 3)
    _ = try await pipeline.image(for: request())
    #expect(loader.callCount == 3)
  }
}
