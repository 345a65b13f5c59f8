import Foundation
import Testing

@testable import TesseraFeeds

/// Feed downloads are bounded: 8 MiB of body, an overall deadline, and cancellation that
/// reaches the socket. Each server here misbehaves forever, so a fetcher without the bound
/// would hang until the suite's time limit fails it.
@Suite(.timeLimit(.minutes(1))) struct HTTPFetcherTests {
  static let chunk = [UInt8](repeating: UInt8(ascii: "x"), count: 64 * 1024)

  /// A 200 whose chunked body never ends.
  static let endless: @Sendable (LoopbackServer.Connection, String) -> Void = { connection, _ in
    guard
      connection.write(
        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n")
    else { return }
    let hex = String(chunk.count, radix: 16)
    while connection.write(Array("\(hex)\r\n".utf8) + chunk + [13, 10]) {}
  }

  /// Reads the request, then says nothing until the client goes.
  static let silent: @Sendable (LoopbackServer.Connection, String) -> Void = { connection, _ in
    connection.waitForClose()
  }

  @Test func anEndlessBodyStopsAtEightMiB() async throws {
    try await LoopbackServer.with(answer: Self.endless) { server in
      let fetcher = HTTPFetcher()
      await #expect(throws: FeedError.tooLarge(limit: 8 << 20)) {
        try await fetcher.get(server.url)
      }
      // The client hung up: the endless server's writes failed. (A client reading on would
      // keep this waiting until the time limit. How far past the cap the transport reads before
      // its cancellation lands is scheduling, so it is not asserted.)
      let left = await server.next { if case .answered = $0 { true } else { false } }
      guard case .answered(let sent) = left else {
        Issue.record("the server never saw the client leave")
        return
      }
      #expect(sent >= 8 << 20)
    }
    #expect(
      FeedError.tooLarge(limit: 8 << 20).message(retrieving: "photos")
        == "Can't retrieve photos: the feed is larger than 8 MiB")
  }

  @Test func aStatedLengthOverTheCapFailsBeforeTheBody() async throws {
    try await LoopbackServer.with(answer: { connection, _ in
      connection.write("HTTP/1.1 200 OK\r\nContent-Length: 104857600\r\n\r\n")
      connection.waitForClose()
    }) { server in
      await #expect(throws: FeedError.tooLarge(limit: 8 << 20)) {
        try await HTTPFetcher().get(server.url)
      }
    }
  }

  @Test func aBodyAtTheCapIsReadAndOneByteMoreIsNot() async throws {
    let body = #"{"items": []}"# + String(repeating: " ", count: 4_096 - 13)
    try await LoopbackServer.with(answer: { connection, _ in
      connection.write(
        "HTTP/1.1 200 OK\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)")
    }) { server in
      let data = try await HTTPFetcher(maxBytes: 4_096).get(server.url)
      #expect(data.count == 4_096)
      await #expect(throws: FeedError.tooLarge(limit: 4_095)) {
        try await HTTPFetcher(maxBytes: 4_095).get(server.url)
      }
    }
    #expect(FeedError.tooLarge(limit: 4_096).description == "the feed is larger than 4 KiB")
  }

  /// A server that never answers: the idle timeout is a minute, so only the deadline can end it.
  @Test func theDeadlineEndsASilentServer() async throws {
    try await LoopbackServer.with(answer: Self.silent) { server in
      let fetcher = HTTPFetcher(timeout: .seconds(60), deadline: .milliseconds(200))
      await #expect(throws: FeedError.timedOut) { try await fetcher.get(server.url) }
    }
  }

  /// A byte every 20 ms keeps the connection from ever being idle; the deadline is on the
  /// whole transfer, so it still ends.
  @Test func theDeadlineEndsATrickle() async throws {
    try await LoopbackServer.with(answer: { connection, _ in
      guard connection.write("HTTP/1.1 200 OK\r\nContent-Length: 1000000\r\n\r\n") else { return }
      while connection.write("x") { usleep(20_000) }
    }) { server in
      let fetcher = HTTPFetcher(timeout: .seconds(60), deadline: .milliseconds(300))
      await #expect(throws: FeedError.timedOut) { try await fetcher.get(server.url) }
    }
  }

  /// Cancelling the task that fetches closes the connection: the server sees the client go.
  @Test func cancellingTheTaskCancelsTheDownload() async throws {
    try await LoopbackServer.with(answer: Self.silent) { server in
      let fetcher = HTTPFetcher(timeout: .seconds(60), deadline: .seconds(60))
      let url = server.url
      let fetching = Task { () -> Result<Data, FeedError> in
        do throws(FeedError) {
          return .success(try await fetcher.get(url))
        } catch {
          return .failure(error)
        }
      }
      #expect(await server.next(where: { _ in true }) == .request("GET /feed.json HTTP/1.1"))
      fetching.cancel()
      #expect(await fetching.value == .failure(.cancelled))
      #expect(await server.next(where: { _ in true }) == .answered(sent: 0))
    }
  }

  /// A `Location: file:…` never makes the fetcher read a local file: the redirect is not
  /// followed, and its 302 is the answer.
  @Test func aRedirectToAFileNeverReadsIt() async throws {
    try await LoopbackServer.with(answer: { connection, line in
      if line.hasPrefix("GET /feed.json ") {
        connection.write(
          "HTTP/1.1 302 Found\r\nLocation: file:///etc/passwd\r\nContent-Length: 0\r\n\r\n")
      } else {
        connection.write("HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n")
      }
    }) { server in
      let result: Result<Data, FeedError>
      do throws(FeedError) {
        result = .success(try await HTTPFetcher(timeout: .seconds(20)).get(server.url))
      } catch {
        result = .failure(error)
      }
      #expect(result == .failure(.badStatus(302)))
    }
  }

  @Test func limitsAreClamped() {
    let fetcher = HTTPFetcher(timeout: .seconds(-5), deadline: .seconds(1e12), maxBytes: Int.max)
    #expect(fetcher.timeout == .milliseconds(1))
    #expect(fetcher.deadline == FeedLimits.maxDuration)
    #expect(fetcher.maxBytes == FeedLimits.maxFeedBytes)
    #expect(HTTPFetcher(maxBytes: -1).maxBytes == 1)
  }
}
