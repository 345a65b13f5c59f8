import AsyncHTTPClient
import Foundation
import TesseraHTTP
import TesseraUtilities

/// Loads http(s) URLs through AsyncHTTPClient, the HTTP client of server-side Swift (SwiftNIO).
///
/// What it does that Foundation's `URLSession` on Linux cannot:
/// - **A deadline per request** for the whole transfer, connecting and the last body byte
///   included (`DataRequest.timeout`, to the millisecond; URLSession on Linux only has a
///   session-wide idle timeout in whole seconds).
/// - **A streamed body with a size limit**: `Content-Length` over `DataRequest.maxBytes` is
///   refused before any body byte is read, and reading stops (the connection is closed) as
///   soon as a body without one passes the limit.
/// - **HTTP/2** to https servers that offer it (negotiated with ALPN; plain http is
///   HTTP/1.1), with one connection pool for every request.
/// - **Progress** for every chunk of the body, against `Content-Length` when the server sent it.
///
/// No cache of its own: the pipeline's disk cache does HTTP caching, and sees every 304.
/// Redirects are followed (at most 5, never in a cycle); compressed bodies are not inflated
/// (images are already compressed, and inflating is how a small body becomes a huge one).
///
/// The loader owns its `HTTPClient` (on SwiftNIO's shared event loops) and shuts it down when
/// it is released, unless it was given one (`init(client:)`), which stays the caller's.
public final class AsyncHTTPClientDataLoader: DataLoading {
  private let client: HTTPClient
  private let ownsClient: Bool
  /// Whether `shutdown()` ran: the client is not shut down a second time on release.
  private let shutDown = Locked(false)

  /// - Parameters:
  ///   - maxConnectionsPerHost: HTTP/1.1 connections kept open to one host (HTTP/2 needs one).
  ///   - connectTimeout: seconds to establish a connection, clamped into
  ///     `ImageLimits.requestTimeout`; the request's own deadline applies as well.
  ///   - allowsHTTP2: negotiate HTTP/2 with https servers that offer it (the default).
  public init(
    maxConnectionsPerHost: Int = 6, connectTimeout: TimeInterval = 10, allowsHTTP2: Bool = true
  ) {
    var configuration = HTTPClient.Configuration(
      redirectConfiguration: .follow(max: 5, allowCycles: false),
      timeout: .init(connect: .milliseconds(Self.milliseconds(connectTimeout))),
      connectionPool: .init(
        idleTimeout: .seconds(60),
        concurrentHTTP1ConnectionsPerHostSoftLimit: maxConnectionsPerHost.clamped(to: 1...64)),
      decompression: .disabled)
    configuration.httpVersion = allowsHTTP2 ? .automatic : .http1Only
    // A refused connection is told at once (the tile says why, `r` retries), not after the
    // client's connection retries have run out the request's deadline.
    configuration.connectionPool.retryConnectionEstablishment = false
    self.client = HTTPClient(
      eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    self.ownsClient = true
  }

  /// A loader over `client`, which the caller keeps and shuts down.
  public init(client: HTTPClient) {
    self.client = client
    self.ownsClient = false
  }

  deinit {
    // Asynchronous: the release may happen on one of the client's own event loops, where a
    // blocking shutdown is not allowed. The client stays alive until its shutdown completes.
    if ownsClient, !shutDown.withLock({ $0 }) { client.shutdown { _ in } }
  }

  /// Shuts down the client this loader made (one it was given stays the caller's), waiting
  /// until its connections are closed and its threads have stopped. Loads after it fail.
  public func shutdown() async {
    guard ownsClient else { return }
    let first = shutDown.withLock { done in
      defer { done = true }
      return !done
    }
    if first { try? await client.shutdown() }
  }

  /// Loads `request.url` with no progress reports.
  public func loadData(for request: DataRequest) async throws(ImagePipelineError) -> DataResponse {
    try await loadData(for: request, reportingProgress: { _, _ in })
  }

  /// Loads `request.url`, calling `progress` after each chunk of the body with the bytes so far
  /// and the total the server announced (nil when it did not).
  public func loadData(
    for request: DataRequest,
    reportingProgress progress: @escaping @Sendable (_ completed: Int, _ total: Int?) -> Void
  ) async throws(ImagePipelineError) -> DataResponse {
    let url = request.url
    if url.isFileURL { throw .schemeNotAllowed(url: url.absoluteString, source: .network) }
    // The request's own fields (sorted: the same request sends the same bytes), with ours
    // where it has none of that name.
    var headers = request.headers.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    if !request.headers.keys.contains(where: { $0.lowercased() == "accept" }) {
      headers.insert(("Accept", "image/*, */*;q=0.5"), at: 0)
    }
    if let etag = request.ifNoneMatch { headers.append(("If-None-Match", etag)) }
    if let date = request.ifModifiedSince { headers.append(("If-Modified-Since", date)) }
    do {
      let response = try await BoundedGet.get(
        url, with: client, headers: headers,
        deadlineMilliseconds: Self.milliseconds(request.timeout), maxBytes: request.maxBytes,
        progress: progress)
      return DataResponse(
        statusCode: response.status, headers: response.headers, data: response.body)
    } catch {
      throw Self.pipelineError(error, url: url)
    }
  }

  /// The pipeline's name for why the GET failed.
  static func pipelineError(_ failure: BoundedGet.Failure, url: URL) -> ImagePipelineError {
    switch failure {
    case .notAWebAddress: .invalidURL(url.absoluteString)
    case .tooLarge(let received, let limit): .tooLarge(.bytes(received, limit: limit))
    case .timedOut: .timedOut
    case .cancelled: .cancelled
    case .cannotConnect: .networkFailed("can't connect to the server")
    case .unknownHost: .networkFailed("the server's name is unknown")
    case .connectionLost: .networkFailed("the connection was lost")
    case .tooManyRedirects: .networkFailed("too many redirects")
    case .other(let description): .networkFailed(description)
    }
  }

  /// `seconds` as whole milliseconds for NIO, within `ImageLimits.requestDeadline`.
  private static func milliseconds(_ seconds: TimeInterval) -> Int64 {
    let bounded = seconds.clamped(to: ImageLimits.requestDeadline, nan: 30)
    return Int64(Int(clamping: bounded * 1_000, to: 1...3_600_000))
  }
}
