import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// GETs a feed body over HTTP(S), turning every transport outcome into a `FeedError`.
///
/// The session is ephemeral and bypasses URL caches: a refresh must show the server's current
/// answer. `timeout` bounds how long the server may stay silent (a hanging server fails with
/// `.timedOut` instead of spinning forever).
public final class HTTPFetcher: Sendable {
  private let session: URLSession

  public init(timeout: Duration = .seconds(15)) {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.urlCache = nil
    configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
    let seconds = Double(timeout.components.seconds)
    let fraction = Double(timeout.components.attoseconds) / 1e18
    configuration.timeoutIntervalForRequest = seconds + fraction
    session = URLSession(configuration: configuration)
  }

  deinit {
    session.finishTasksAndInvalidate()
  }

  /// The body of a 200 answer.
  public func get(_ url: URL) async throws(FeedError) -> Data {
    guard url.scheme == "http" || url.scheme == "https" else {
      throw .invalidURL(url.absoluteString)
    }
    let data: Data
    let response: URLResponse
    do {
      (data, response) = try await session.data(for: URLRequest(url: url))
    } catch {
      throw Self.transportError(error)
    }
    guard let http = response as? HTTPURLResponse else {
      throw .network("the answer is not HTTP")
    }
    guard http.statusCode == 200 else { throw .badStatus(http.statusCode) }
    return data
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
    case .cancelled: return .network("cancelled")
    case .badServerResponse, .cannotParseResponse: return .network("the answer is not valid HTTP")
    default: return .network("URL error \(urlError.code.rawValue)")
    }
  }
}
