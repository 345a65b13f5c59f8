import Foundation
import TesseraUtilities

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// GETs a feed body over HTTP(S), turning every transport outcome into a `FeedError`.
///
/// Every download is bounded three ways: the server may stay silent at most `timeout`; the
/// whole transfer, headers to last byte, may take at most `deadline` (a server trickling one
/// byte a second fails too); and the body may hold at most `maxBytes` (reading stops there,
/// `.tooLarge`). Cancelling the calling task cancels the transfer at once (`.cancelled`).
/// Sessions are ephemeral and bypass URL caches: a refresh must show the server's current
/// answer. Redirects are followed only to http(s) addresses.
public final class HTTPFetcher: Sendable {
  /// Longest silence of the server.
  public let timeout: Duration
  /// Longest whole transfer.
  public let deadline: Duration
  /// Largest body read.
  public let maxBytes: Int

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
  }

  /// The body of a 200 answer.
  public func get(_ url: URL) async throws(FeedError) -> Data {
    guard Self.isWebURL(url) else { throw .invalidURL(url.absoluteString) }
    let transfer = BodyTransfer(maxBytes: maxBytes)
    let session = URLSession(
      configuration: sessionConfiguration(), delegate: transfer, delegateQueue: nil)
    let deadline = deadline
    let timer = Task {
      // Cancelled when the transfer ends first; only a deadline that really passed fails it.
      guard (try? await Task.sleep(for: deadline)) != nil else { return }
      transfer.finish(.failure(.timedOut))
    }
    defer {
      timer.cancel()
      session.invalidateAndCancel()
    }
    let result = await withTaskCancellationHandler {
      await transfer.run(session.dataTask(with: URLRequest(url: url)))
    } onCancel: {
      transfer.finish(.failure(.cancelled))
    }
    return try result.get()
  }

  private func sessionConfiguration() -> URLSessionConfiguration {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.urlCache = nil
    configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
    configuration.timeoutIntervalForRequest = Self.seconds(timeout)
    configuration.timeoutIntervalForResource = Self.seconds(deadline)
    return configuration
  }

  private static func seconds(_ duration: Duration) -> TimeInterval {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
  }

  /// Whether `url` is one this layer may fetch: http(s) with a host.
  static func isWebURL(_ url: URL) -> Bool {
    FeedLimits.networkSchemes.contains(url.scheme?.lowercased() ?? "")
      && !(url.host ?? "").isEmpty
  }

  /// Names the URL-loading failures people meet; the rest keep their code.
  static func transportError(_ error: any Error) -> FeedError {
    guard let urlError = error as? URLError else {
      return .network(String(describing: error))
    }
    switch urlError.code {
    case .timedOut: return .timedOut
    case .cannotConnectToHost: return .network("can't connect to the server")
    case .networkConnectionLost: return .network("the connection was lost")
    case .cannotFindHost, .dnsLookupFailed: return .network("the server's name is unknown")
    case .notConnectedToInternet: return .network("not connected to the internet")
    case .cancelled: return .cancelled
    case .badServerResponse, .cannotParseResponse: return .network("the answer is not valid HTTP")
    default: return .network("URL error \(urlError.code.rawValue)")
    }
  }
}
