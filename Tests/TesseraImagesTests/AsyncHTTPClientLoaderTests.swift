import Foundation
import TesseraUtilities
import Testing

@testable import TesseraImages

/// What the AsyncHTTPClient loader does beyond the contract both loaders share
/// (`HTTPIntegrationTests`): a real per-request deadline and a body limit that stops reading.
@Suite(.timeLimit(.minutes(1))) struct AsyncHTTPClientLoaderTests {
  /// A server that accepts the connection and never answers: the request's own deadline
  /// (a fraction of a second, which URLSession on Linux cannot express) ends it.
  @Test func theRequestDeadlineEndsASilentServer() async throws {
    let listener = try #require(Listener())
    defer { listener.close() }
    let url = try #require(URL(string: "http://127.0.0.1:\(listener.port)/slow.jpg"))
    await #expect(throws: ImagePipelineError.timedOut) {
      try await AsyncHTTPClientDataLoader().loadData(for: DataRequest(url: url, timeout: 0.25))
    }
  }

  /// A body without Content-Length is read only up to the limit: the loader gives up within
  /// one chunk past it, not after the 8 MiB the server would send.
  @Test func aStreamedBodyStopsAtTheLimit() async throws {
    try await LoopbackServer.run { base, _ in
      let url = try #require(URL(string: base + "/stream.jpg"))
      let limit = 200_000
      let result = await Result { () async throws(ImagePipelineError) -> DataResponse in
        try await AsyncHTTPClientDataLoader().loadData(
          for: DataRequest(url: url, maxBytes: limit))
      }
      guard case .failure(.tooLarge(.bytes(let received, let stated))) = result else {
        Issue.record("expected tooLarge, got \(result)")
        return
      }
      #expect(stated == limit)
      #expect(received > limit)
      #expect(received <= limit + LoopbackServer.streamChunk)
    }
  }

  /// Content-Length over the limit is refused before any body byte is read.
  @Test func anAnnouncedBodyOverTheLimitIsRefusedUpFront() async throws {
    try await LoopbackServer.run { base, _ in
      let url = try #require(URL(string: base + "/big.jpg"))
      let reported = Locked<Int>(0)
      await #expect(throws: ImagePipelineError.tooLarge(.bytes(300_000, limit: 1_000))) {
        try await AsyncHTTPClientDataLoader().loadData(
          for: DataRequest(url: url, maxBytes: 1_000)
        ) { _, _ in reported.withLock { $0 += 1 } }
      }
      #expect(reported.withLock { $0 } == 0)
    }
  }

  /// A 304 to a conditional request is handed back as a response, for the disk cache.
  @Test func aNotModifiedAnswerIsAResponse() async throws {
    try await LoopbackServer.run { base, served in
      let url = try #require(URL(string: base + "/photo.jpg"))
      let response = try await AsyncHTTPClientDataLoader().loadData(
        for: DataRequest(url: url, ifNoneMatch: "\"p1\""))
      #expect(response.statusCode == 304)
      #expect(response.header("ETag") == "\"p1\"")
      #expect(served.withLock { $0 } == ["304"])
    }
  }
}
