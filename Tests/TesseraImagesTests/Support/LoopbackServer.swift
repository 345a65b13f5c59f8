import Foundation
import Hummingbird
import TesseraTestSupport
import TesseraUtilities

#if canImport(Glibc)
  import Glibc
#endif

/// Serves test images over real HTTP on 127.0.0.1 for the duration of a test.
///
/// Routes: `/photo.jpg` (300x200 JPEG with an ETag, revalidated with 304), `/text` (not an
/// image), `/big.jpg` (300,000 bytes, with Content-Length), `/stream.jpg` (8 MiB in 64 KiB
/// chunks, no Content-Length). `served` lists the answers to `/photo.jpg` ("200", "304").
enum LoopbackServer {
  static let photo = TestImages.gradient(width: 300, height: 200, as: ".jpg[Q=85]")
  static let streamChunk = 64 << 10
  static let streamChunks = 128

  static func run(
    _ body: @Sendable (_ base: String, _ served: Locked<[String]>) async throws -> Void
  ) async throws {
    let served = Locked<[String]>([])
    let router = Router()
    let photo = Self.photo
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
    // A private photo: 401 without the token.
    router.get("private.jpg") { request, _ -> Response in
      guard request.headers[.authorization] == "Bearer s3cret" else {
        served.withLock { $0.append("401") }
        return Response(status: .unauthorized)
      }
      served.withLock { $0.append("200 private") }
      return Response(
        status: .ok, headers: [.contentType: "image/jpeg", .cacheControl: "max-age=60"],
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
    router.get("stream.jpg") { _, _ in
      let chunk = ByteBuffer(bytes: [UInt8](repeating: 0xFF, count: streamChunk))
      return Response(
        status: .ok, headers: [.contentType: "image/jpeg"],
        body: ResponseBody { writer in
          for _ in 0..<streamChunks { try await writer.write(chunk) }
          try await writer.finish(nil)
        })
    }
    setenv("LOG_LEVEL", "critical", 1)  // Hummingbird's start/stop lines are not test output
    let (ports, continuation) = AsyncStream<Int>.makeStream()
    let app = Application(
      router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
      onServerRunning: { continuation.yield($0.localAddress?.port ?? 0) })
    try await withThrowingTaskGroup(of: Void.self) { group in
      group.addTask { try await app.run() }
      var iterator = ports.makeAsyncIterator()
      guard let port = await iterator.next() else { return }
      defer { group.cancelAll() }
      try await body("http://127.0.0.1:\(port)", served)
    }
  }
}

/// A TCP socket on 127.0.0.1 that accepts connections into its backlog and never answers.
final class Listener {
  private var descriptor: Int32
  let port: Int

  init?() {
    guard let (descriptor, port) = LoopbackSocket.listen(backlog: 8) else { return nil }
    self.descriptor = descriptor
    self.port = port
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
