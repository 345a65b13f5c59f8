import AsyncHTTPClient
import Foundation
import NIOCore
import NIOPosix

/// One bounded GET over AsyncHTTPClient, the part every network client of Tessera shares (the
/// feed fetcher, the image loader): http(s) with a host only, a deadline on the whole transfer,
/// a body limit that refuses a stated `Content-Length` over it before any body byte and stops
/// reading a body without one the moment it passes the limit (leaving the loop drops the body
/// stream, which closes the connection), and cancellation through the calling task.
///
/// - Complexity: O(body) time and memory, the body bounded by `maxBytes`.
package enum BoundedGet {
  /// How long after the deadline the whole-transfer timer fires.
  static let deadlineGrace = Duration.milliseconds(100)

  /// What came back: the status, the headers (names lower-cased, repeated ones joined with
  /// ", "), and the body when `readsBody` said to read it.
  package struct Response: Sendable {
    package var status: Int
    package var headers: [String: String]
    package var body: Data
  }

  /// Why no response came back, in the words both clients map onto their own errors.
  package enum Failure: Error, Equatable, Sendable {
    /// Not http(s), or no host.
    case notAWebAddress
    /// The body passed `limit`: `received` is the stated length or the bytes read so far.
    case tooLarge(received: Int, limit: Int)
    case timedOut
    case cancelled
    case cannotConnect
    case unknownHost
    case connectionLost
    case tooManyRedirects
    /// Anything else, described.
    case other(String)
  }

  /// GETs `url`. `readsBody(status)` decides whether the body of that status is read at all
  /// (a feed wants only a 200's); `progress` sees the bytes read so far and the stated length.
  /// The deadline covers the whole transfer, the last body byte included: the transfer races
  /// a timer and the loser is cancelled (AsyncHTTPClient's own deadline ends at the head, so a
  /// server trickling its body would otherwise never time out).
  package static func get(
    _ url: URL, with client: HTTPClient, headers: [(String, String)] = [],
    deadlineMilliseconds: Int64, maxBytes: Int,
    readsBody: @escaping @Sendable (Int) -> Bool = { _ in true },
    progress: @escaping @Sendable (_ completed: Int, _ total: Int?) -> Void = { _, _ in }
  ) async throws(Failure) -> Response {
    guard isWebURL(url) else { throw .notAWebAddress }
    let milliseconds = max(1, deadlineMilliseconds)
    let deadline = Duration.milliseconds(milliseconds)
    let result = await withTaskGroup(of: Result<Response, Failure>?.self) { group in
      group.addTask {
        do throws(Failure) {
          return .success(
            try await transfer(
              url, with: client, headers: headers, milliseconds: milliseconds, maxBytes: maxBytes,
              readsBody: readsBody, progress: progress))
        } catch {
          return .failure(error)
        }
      }
      group.addTask {
        // A little after the client's own deadline, so that when the head is what is late, the
        // client's more specific failure (the connection refused on every retry) is the one
        // told. nil when cancelled: the transfer ended first, or the caller gave up.
        let ended = (try? await Task.sleep(for: deadline + Self.deadlineGrace)) != nil
        return ended ? .failure(.timedOut) : nil
      }
      while let next = await group.next() {
        if let result = next {
          group.cancelAll()
          return result
        }
      }
      return .failure(.cancelled)
    }
    return try result.get()
  }

  private static func transfer(
    _ url: URL, with client: HTTPClient, headers: [(String, String)], milliseconds: Int64,
    maxBytes: Int, readsBody: (Int) -> Bool, progress: (_ completed: Int, _ total: Int?) -> Void
  ) async throws(Failure) -> Response {
    var request = HTTPClientRequest(url: url.absoluteString)
    for (name, value) in headers { request.headers.add(name: name, value: value) }
    do {
      let response = try await client.execute(
        request, timeout: .milliseconds(milliseconds))
      var fields: [String: String] = [:]
      for (name, value) in response.headers {
        let key = name.lowercased()
        fields[key] = fields[key].map { $0 + ", " + value } ?? value
      }
      let status = Int(response.status.code)
      guard readsBody(status) else {
        return Response(status: status, headers: fields, body: Data())
      }
      let limit = max(0, maxBytes)
      let stated = fields["content-length"].flatMap(ContentLength.parse)
      if let stated, stated > limit { throw Failure.tooLarge(received: stated, limit: limit) }
      var body = Data()
      body.reserveCapacity(min(stated ?? 0, limit))
      for try await chunk in response.body {
        let received = body.count + chunk.readableBytes
        guard received <= limit else { throw Failure.tooLarge(received: received, limit: limit) }
        chunk.withUnsafeReadableBytes { body.append(contentsOf: $0) }
        progress(body.count, stated)
      }
      return Response(status: status, headers: fields, body: body)
    } catch {
      throw failure(error)
    }
  }

  /// Whether `url` may be fetched over the network: http(s) with a host.
  package static func isWebURL(_ url: URL) -> Bool {
    guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
      return false
    }
    return !(url.host ?? "").isEmpty
  }

  /// The name for what AsyncHTTPClient, NIO or the task threw.
  package static func failure(_ error: any Error) -> Failure {
    if let failure = error as? Failure { return failure }
    if error is CancellationError || Task.isCancelled { return .cancelled }
    if let error = error as? HTTPClientError {
      switch error {
      case .cancelled: return .cancelled
      case .deadlineExceeded, .readTimeout, .connectTimeout, .getConnectionFromPoolTimeout:
        return .timedOut
      case .remoteConnectionClosed: return .connectionLost
      case .redirectLimitReached, .redirectCycleDetected: return .tooManyRedirects
      default: return .other(String(describing: error))
      }
    }
    if let error = error as? IOError, error.errnoCode == ECONNREFUSED { return .cannotConnect }
    if let error = error as? NIOConnectionError {
      let unresolved =
        error.dnsAError != nil && error.dnsAAAAError != nil && error.connectionErrors.isEmpty
      return unresolved ? .unknownHost : .cannotConnect
    }
    return .other(String(describing: error))
  }
}
