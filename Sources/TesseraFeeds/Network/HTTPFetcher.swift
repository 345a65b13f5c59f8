import AsyncHTTPClient
import Foundation
import NIOCore
import TesseraHTTP
import TesseraUtilities

/// GETs a feed body over HTTP(S), turning every transport outcome into a `FeedError`.
///
/// Every download is bounded three ways: the server may stay silent at most `timeout`; the
/// whole transfer, connecting to last byte, may take at most `deadline` (a server trickling one
/// byte a second fails too); and the body may hold at most `maxBytes` (a stated length over it
/// fails before the body, and reading stops there, `.tooLarge`). Cancelling the calling task
/// cancels the transfer and closes the connection (`.cancelled`). Nothing is cached: a refresh
/// shows the server's current answer. Redirects are followed only to http(s) addresses (at most
/// 5, never in a cycle); any other target is not followed, and its 3xx is the answer.
///
/// AsyncHTTPClient rather than `URLSession`: on Linux, Foundation's URLSession ignores a
/// `cancel()` from its own delegate queue and crashes on one that races the session's
/// invalidation; structured cancellation has neither problem.
public final class HTTPFetcher: Sendable {
  /// Longest silence of the server.
  public let timeout: Duration
  /// Longest whole transfer.
  public let deadline: Duration
  /// Largest body read.
  public let maxBytes: Int
  private let client: HTTPClient

  /// Durations are clamped into 1 ms…`FeedLimits.maxDuration`, `maxBytes` into
  /// 1…`FeedLimits.maxFeedBytes`.
  public init(
    timeout: Duration = FeedLimits.feedIdleTimeout, deadline: Duration = FeedLimits.feedDeadline,
    maxBytes: Int = FeedLimits.maxFeedBytes
  ) {
    let durations = Duration.milliseconds(1)...FeedLimits.maxDuration
    self.timeout = min(max(timeout, durations.lowerBound), durations.upperBound)
    self.deadline = min(max(deadline, durations.lowerBound), durations.upperBound)
    self.maxBytes = maxBytes.clamped(to: 1...FeedLimits.maxFeedBytes)
    let idle = TimeAmount.milliseconds(Self.milliseconds(self.timeout))
    var configuration = HTTPClient.Configuration(
      redirectConfiguration: .follow(max: 5, allowCycles: false),
      timeout: .init(connect: idle, read: idle),
      decompression: .disabled)
    // A person is waiting and `r` retries: a refused connection is said at once, not after the
    // client's backoff has run out the timeout.
    configuration.connectionPool.retryConnectionEstablishment = false
    client = HTTPClient(
      eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
  }

  deinit {
    // Asynchronous: the last release may happen on one of the client's own event loops, where a
    // blocking shutdown is not allowed.
    client.shutdown { _ in }
  }

  /// The body of a 200 answer.
  public func get(_ url: URL) async throws(FeedError) -> Data {
    let response: BoundedGet.Response
    do {
      response = try await BoundedGet.get(
        url, with: client,
        headers: [("Accept", "application/json, */*;q=0.5"), ("Cache-Control", "no-cache")],
        deadlineMilliseconds: Self.milliseconds(deadline), maxBytes: maxBytes,
        readsBody: { $0 == 200 })
    } catch {
      throw Self.feedError(error, url: url)
    }
    guard response.status == 200 else { throw .badStatus(response.status) }
    return response.body
  }

  /// `duration` as whole milliseconds, at least one.
  private static func milliseconds(_ duration: Duration) -> Int64 {
    let (seconds, attoseconds) = duration.components
    let whole = seconds.multipliedReportingOverflow(by: 1_000)
    return whole.overflow ? .max : max(1, whole.partialValue + attoseconds / 1_000_000_000_000_000)
  }

  /// Whether `url` is one this layer may fetch: http(s) with a host.
  static func isWebURL(_ url: URL) -> Bool { BoundedGet.isWebURL(url) }

  /// The feed's name for why the GET failed.
  static func feedError(_ failure: BoundedGet.Failure, url: URL) -> FeedError {
    switch failure {
    case .notAWebAddress: .invalidURL(url.absoluteString)
    case .tooLarge(_, let limit): .tooLarge(limit: limit)
    case .timedOut: .timedOut
    case .cancelled: .cancelled
    case .cannotConnect: .network("can't connect to the server")
    case .unknownHost: .network("the server's name is unknown")
    case .connectionLost: .network("the connection was lost")
    case .tooManyRedirects: .network("too many redirects")
    case .other(let description): .network(description)
    }
  }
}
