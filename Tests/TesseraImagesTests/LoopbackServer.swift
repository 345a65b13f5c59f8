import Foundation
import Hummingbird
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
  static let photo = Fixtures.image(width: 300, height: 200, as: ".jpg[Q=85]")
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
