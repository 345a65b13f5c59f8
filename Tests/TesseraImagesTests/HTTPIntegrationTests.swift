import Foundation
import Hummingbird
import TesseraUtilities
import Testing

@testable import TesseraImages

#if canImport(Glibc)
  import Glibc
#endif

/// The pipeline over real HTTP: URLSession against a Hummingbird server on 127.0.0.1.
@Suite(.timeLimit(.minutes(1))) struct HTTPIntegrationTests {
  /// Runs a server with the routes the tests need for the duration of `body`.
  private func withServer(
    _ body: @Sendable (_ base: String, _ served: Locked<[String]>) async throws -> Void
  )
    async throws
  {
    let served = Locked<[String]>([])
    let router = Router()
    let photo = Fixtures.image(width: 300, height: 200, as: ".jpg[Q=85]")
    router.get("photo.jpg") { request, _ -> Response in
      let conditional = request.headers[.ifNoneMatch] == "\"p1\""
      served.withLock { $0.append(conditional ? "304" : "200") }
      if conditional {
        return Response(
          status: .notModified, headers: [.eTag: "\"p1\"", .cacheControl: "max-age=0"])
      }
      return Response(
        status: .ok,
        headers: [.contentType: "image/jpeg", .eTag: "\"p1\"", .cacheControl: "max-age=0"],
        body: .init(byteBuffer: ByteBuffer(bytes: photo)))
    }
    router.get("text") { _, _ in
      Response(
        status: .ok, headers: [.contentType: "text/plain; charset=utf-8"],
        body: .init(byteBuffer: ByteBuffer(string: "hello")))
    }
    router.get("big.jpg") { _, _ in
      Response(
        status: .ok, headers: [.contentType: "image/jpeg"],
        body: .init(byteBuffer: ByteBuffer(bytes: [UInt8](repeating: 0xFF, count: 300_000))))
    }
    setenv("LOG_LEVEL", "critical", 1)  // Hummingbird's start/stop lines are not test output
    let (ports, continuation) = AsyncStream<Int>.makeStream()
    let app = Application(
      router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
      onServerRunning: { continuation.yield($0.localAddress?.port ?? 0) })
    try await withThrowingTaskGroup(of: Void.self) { group in
      group.addTask { try await app.run() }
      var iterator = ports.makeAsyncIterator()
      let port = try #require(await iterator.next())
      defer { group.cancelAll() }
      try await body("http://127.0.0.1:\(port)", served)
    }
  }

  @Test func loadsDecodesCachesAndRevalidatesOverHTTP() async throws {
    try await withServer { base, served in
      let directory = Fixtures.temporaryDirectory()
      let pipeline = ImagePipeline(
        configuration: .init(
          dataLoader: URLSessionDataLoader(), memoryCache: MemoryCache(costLimit: 1 << 20),
          diskCache: try DiskCache(directory: directory)))
      let request = ImageRequest(
        url: try #require(URL(string: "\(base)/photo.jpg")),
        targetSize: PixelSize(width: 60, height: 60))
      let image = try await pipeline.image(for: request)
      #expect(image.size == PixelSize(width: 60, height: 40))
      #expect(image.originalSize == PixelSize(width: 300, height: 200))
      // Another size: memory misses, the disk entry is stale (max-age=0) → 304 → same bytes.
      let small = ImageRequest(url: request.url, targetSize: PixelSize(width: 30, height: 30))
      #expect(try await pipeline.image(for: small).width == 30)
      #expect(served.withLock { $0 } == ["200", "304"])
      #expect(pipeline.statistics.notModifiedResponses == 1)
    }
  }

  @Test func httpErrorsAreTyped() async throws {
    try await withServer { base, _ in
      let pipeline = ImagePipeline(
        configuration: .init(dataLoader: URLSessionDataLoader(), maxResponseBytes: 100_000))
      func error(_ path: String) async -> ImagePipelineError? {
        guard let url = URL(string: base + path) else { return nil }
        do {
          _ = try await pipeline.image(for: ImageRequest(url: url))
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

  @Test func silentServerTimesOut() async throws {
    let listener = try #require(Listener())
    defer { listener.close() }
    let url = try #require(URL(string: "http://127.0.0.1:\(listener.port)/slow.jpg"))
    await #expect(throws: ImagePipelineError.timedOut) {
      try await URLSessionDataLoader(requestTimeout: 1).loadData(
        for: DataRequest(url: url, timeout: 1))
    }
  }

  @Test func refusedConnectionIsANetworkError() async throws {
    let port = try #require(Listener()).closeReturningPort()
    let url = try #require(URL(string: "http://127.0.0.1:\(port)/a.jpg"))
    do {
      _ = try await URLSessionDataLoader().loadData(for: DataRequest(url: url, timeout: 5))
      Issue.record("expected a network error")
    } catch {
      guard case .networkFailed = error else {
        Issue.record("expected networkFailed, got \(error)")
        return
      }
    }
  }

  @Test func fileURLsLoadFromDiskForALocalFolderRequest() async throws {
    let directory = Fixtures.temporaryDirectory()
    let file = directory.appendingPathComponent("a.png")
    try Fixtures.png.write(to: file)
    let pipeline = ImagePipeline(configuration: .init(dataLoader: URLSessionDataLoader()))
    let image = try await pipeline.image(
      for: ImageRequest(
        url: file, targetSize: PixelSize(width: 32, height: 32), source: .localFolder))
    #expect(image.size == PixelSize(width: 32, height: 24))
    let missing = directory.appendingPathComponent("none.png")
    await #expect(throws: ImagePipelineError.fileRefused(path: missing.path, .notFound)) {
      try await pipeline.image(for: ImageRequest(url: missing, source: .localFolder))
    }
  }

  /// The HTTP loader is not a way around the pipeline's scheme rule.
  @Test func theHTTPLoaderRefusesFileURLs() async throws {
    let directory = Fixtures.temporaryDirectory()
    let file = directory.appendingPathComponent("a.png")
    try Fixtures.png.write(to: file)
    await #expect(
      throws: ImagePipelineError.schemeNotAllowed(url: file.absoluteString, source: .network)
    ) {
      try await URLSessionDataLoader().loadData(for: DataRequest(url: file))
    }
  }
}

/// A TCP socket on 127.0.0.1 that accepts connections into its backlog and never answers.
private final class Listener {
  private var descriptor: Int32
  let port: Int

  init?() {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { return nil }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
        bind(fd, pointer, length) == 0 && listen(fd, 8) == 0
          && getsockname(fd, pointer, &length) == 0
      }
    }
    guard bound else {
      _ = Glibc.close(fd)
      return nil
    }
    descriptor = fd
    port = Int(UInt16(bigEndian: address.sin_port))
  }

  func close() {
    if descriptor >= 0 { _ = Glibc.close(descriptor) }
    descriptor = -1
  }

  /// Closes the socket and returns its port, now refusing connections.
  func closeReturningPort() -> Int {
    close()
    return port
  }
}
