import Foundation
import TesseraTestSupport
import Testing

@testable import TesseraImages

#if canImport(Glibc)
  import Glibc
#endif

/// Schemes by source: a network request never opens a local file; a local-folder request
/// reads regular files only, never through a link, never blocking on a FIFO, never past the
/// byte limit.
@Suite(.timeLimit(.minutes(1))) struct SourceTrustTests {
  private let owned = TemporaryFolder.Owned()
  private var folder: URL { owned.url }

  private func load(
    _ request: ImageRequest, loader: HeldDataLoader = HeldDataLoader(), maxBytes: Int = 50 << 20
  ) async -> (Result<Image, ImagePipelineError>, ImagePipeline) {
    let pipeline = makePipeline(loader, maxBytes: maxBytes)
    do {
      return (.success(try await pipeline.image(for: request)), pipeline)
    } catch {
      return (.failure(error), pipeline)
    }
  }

  private func local(_ name: String) -> ImageRequest {
    ImageRequest(
      url: folder.appendingPathComponent(name), targetSize: PixelSize(width: 16, height: 16),
      source: .localFolder)
  }

  @Test func aNetworkRequestForAFileURLIsRefusedAndNeverOpened() async throws {
    let file = folder.appendingPathComponent("photo.png")
    try Fixtures.png.write(to: file)
    let loader = HeldDataLoader { _ in .success(Fixtures.ok()) }
    let (result, pipeline) = await load(ImageRequest(url: file), loader: loader)
    #expect(result.error == .schemeNotAllowed(url: file.absoluteString, source: .network))
    #expect(
      result.error?.description
        == "'\(file.absoluteString)' is not loaded: images from the network may only use "
        + "http(s), never local files")
    #expect(loader.callCount == 0)
    #expect(pipeline.statistics.downloadsStarted == 0)
  }

  @Test func aNetworkPrefetchForAFileURLIsRefusedToo() async throws {
    let file = folder.appendingPathComponent("photo.png")
    try Fixtures.png.write(to: file)
    let loader = HeldDataLoader { _ in .success(Fixtures.ok()) }
    let pipeline = makePipeline(loader)
    let outcomes = Collector<ImagePipelineError?>()
    let prefetcher = ImagePrefetcher(pipeline: pipeline) { _, error in outcomes.handler(0)(error) }
    prefetcher.startPrefetching(with: [ImageRequest(url: file)])
    await outcomes.wait(for: 1)
    #expect(outcomes[0] == .some(.schemeNotAllowed(url: file.absoluteString, source: .network)))
    #expect(loader.callCount == 0)
  }

  @Test func aLocalFolderRequestMayNotUseHTTP() async throws {
    let url = try #require(URL(string: "https://images.test/a.png"))
    let (result, _) = await load(ImageRequest(url: url, source: .localFolder))
    #expect(result.error == .schemeNotAllowed(url: url.absoluteString, source: .localFolder))
  }

  @Test func aFileURLOnAnotherHostIsInvalid() async throws {
    let url = try #require(URL(string: "file://fileserver.example/share/a.png"))
    let (result, _) = await load(ImageRequest(url: url, source: .localFolder))
    #expect(result.error == .invalidURL(url.absoluteString))
  }

  @Test func aLocalPhotoLoads() async throws {
    try Fixtures.png.write(to: folder.appendingPathComponent("a.png"))
    let (result, _) = await load(local("a.png"))
    #expect(result.image?.size == PixelSize(width: 16, height: 12))
  }

  @Test func aSymbolicLinkIsRefused() async throws {
    let outsideFolder = TemporaryFolder.make()
    defer { try? FileManager.default.removeItem(at: outsideFolder) }
    let outside = outsideFolder.appendingPathComponent("private.png")
    try Fixtures.png.write(to: outside)
    let link = folder.appendingPathComponent("link.png")
    try FileManager.default.createSymbolicLink(at: link, withDestinationURL: outside)
    let (result, _) = await load(local("link.png"))
    #expect(result.error == .fileRefused(path: link.path, .symbolicLink))
    #expect(result.error?.description.contains("symbolic link") == true)
  }

  /// A FIFO with no writer would block `open` (and a read) forever; the suite's time limit
  /// turns such a hang into a failure.
  @Test func aFIFOIsRefusedWithoutBlocking() async throws {
    let fifo = folder.appendingPathComponent("pipe.jpg")
    #expect(mkfifo(fifo.path, 0o600) == 0)
    let (result, _) = await load(local("pipe.jpg"))
    #expect(result.error == .fileRefused(path: fifo.path, .notARegularFile))
  }

  @Test func aDirectoryIsRefused() async throws {
    try FileManager.default.createDirectory(
      at: folder.appendingPathComponent("album.jpg"), withIntermediateDirectories: false)
    let (result, _) = await load(local("album.jpg"))
    #expect(
      result.error
        == .fileRefused(path: folder.appendingPathComponent("album.jpg").path, .notARegularFile))
  }

  @Test func aFileOverTheLimitIsRefusedFromItsSize() async throws {
    try Fixtures.png.write(to: folder.appendingPathComponent("big.png"))
    let (result, pipeline) = await load(local("big.png"), maxBytes: 100)
    #expect(result.error == .tooLarge(.bytes(Fixtures.png.count, limit: 100)))
    #expect(pipeline.statistics.decodes == 0)
  }

  @Test func aMissingFileSaysSo() async {
    let (result, _) = await load(local("gone.png"))
    #expect(
      result.error == .fileRefused(path: folder.appendingPathComponent("gone.png").path, .notFound))
  }

  /// A local image in the memory cache is not handed to a network request for the same URL.
  @Test func theMemoryCacheDoesNotServeALocalImageToANetworkRequest() async throws {
    try Fixtures.png.write(to: folder.appendingPathComponent("a.png"))
    let pipeline = makePipeline(HeldDataLoader())
    let request = local("a.png")
    _ = try await pipeline.image(for: request)
    #expect(pipeline.cachedImage(for: request) != nil)
    var network = request
    network.source = .network
    #expect(pipeline.cachedImage(for: network) == nil)
  }
}
