import Foundation

/// What the pipeline asks a data loader for.
public struct DataRequest: Hashable, Sendable, CustomStringConvertible {
  /// What to fetch: an http(s) URL (the pipeline reads local-folder files itself).
  public var url: URL
  /// The most the whole transfer may take, in seconds, from connecting to the last body byte;
  /// past it the load fails with `.timedOut`. The pipeline enforces it whatever the loader
  /// does; a loader that can also applies it itself (AsyncHTTPClient's per-request deadline).
  public var timeout: TimeInterval
  /// The largest body accepted; a loader should stop reading past it (`.tooLarge(.bytes)`).
  public var maxBytes: Int
  /// Validators of a stale cached copy. When either is set the request is conditional and a
  /// loader must hand back a 304 response as it is (not throw): the disk stage then reuses
  /// the bytes it already has.
  public var ifNoneMatch: String?
  /// The stored copy's `Last-Modified`, sent as `If-Modified-Since`; see `ifNoneMatch`.
  public var ifModifiedSince: String?
  /// The urgency of the most urgent subscriber when the load started.
  public var priority: ImageRequest.Priority
  /// Header fields to send besides the loader's own (`Accept`, the validators): the image
  /// request's, and what a `requestModifier` added. Checked by the pipeline before a loader
  /// sees them (`HTTPHeaderFields`).
  public var headers: [String: String]

  /// A request for `url`; every other parameter has the default its property describes
  /// (a 30-second deadline, 50 MiB, unconditional, normal priority).
  public init(
    url: URL, timeout: TimeInterval = 30, maxBytes: Int = 50 << 20, ifNoneMatch: String? = nil,
    ifModifiedSince: String? = nil, priority: ImageRequest.Priority = .normal,
    headers: [String: String] = [:]
  ) {
    self.headers = headers
    self.url = url
    self.timeout = timeout
    self.maxBytes = maxBytes
    self.ifNoneMatch = ifNoneMatch
    self.ifModifiedSince = ifModifiedSince
    self.priority = priority
  }

  /// Whether the request carries a validator, so a 304 answer is expected and valid.
  public var isConditional: Bool { ifNoneMatch != nil || ifModifiedSince != nil }

  /// "DataRequest(URL)", with "conditional" when it is.
  public var description: String {
    "DataRequest(\(url.absoluteString)\(isConditional ? " conditional" : ""))"
  }
}

/// What a data loader got back: the status, the headers (names lowercased) and the body.
public struct DataResponse: Sendable, CustomStringConvertible {
  /// The HTTP status (200, 304, 404…).
  public var statusCode: Int
  /// The response headers, names lowercased; a repeated header's values joined with ", ".
  public var headers: [String: String]
  /// The body (empty for a 304).
  public var data: Data

  /// A response; header names are lowercased here, the last of two spellings wins.
  public init(statusCode: Int = 200, headers: [String: String] = [:], data: Data = Data()) {
    self.statusCode = statusCode
    self.headers = Dictionary(
      headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { _, last in last })
    self.data = data
  }

  /// The header named `name`, compared case-insensitively.
  public func header(_ name: String) -> String? { headers[name.lowercased()] }

  /// The `Content-Type` header, as sent.
  public var contentType: String? { header("content-type") }

  /// "DataResponse(STATUS, N bytes, TYPE)".
  public var description: String {
    "DataResponse(\(statusCode), \(data.count) bytes, \(contentType ?? "no content type"))"
  }
}

/// Fetches the bytes behind a URL. The pipeline validates what comes back (status, content
/// type, size; see `ResponseValidator`), so a loader only transports.
///
/// Contract: throw `.timedOut`, `.networkFailed`, `.tooLarge(.bytes)` (stop reading past
/// `request.maxBytes`) or `.invalidURL`; when the calling task is cancelled, stop and throw
/// `.cancelled`. Return non-2xx responses instead of throwing, including 304 to a
/// conditional request. The pipeline calls it from a task of its own, never the main actor.
public protocol DataLoading: Sendable {
  /// Fetches `request.url`: the response (any status), or a typed error.
  func loadData(for request: DataRequest) async throws(ImagePipelineError) -> DataResponse

  /// Fetches `request.url` like `loadData(for:)`, calling `progress` as the body arrives with
  /// the bytes received so far and the total the server announced (nil when it did not).
  ///
  /// The pipeline calls this one. The default implementation calls `loadData(for:)` and reports
  /// nothing; loaders that stream the body implement it.
  func loadData(
    for request: DataRequest,
    reportingProgress progress: @escaping @Sendable (_ completed: Int, _ total: Int?) -> Void
  ) async throws(ImagePipelineError) -> DataResponse

  /// Releases what the loader holds (connections, threads) once the pipeline is done with
  /// it (`ImagePipeline.shutdown()`). The default does nothing.
  func shutdown() async
}

extension DataLoading {
  /// Nothing to release.
  public func shutdown() async {}

  /// Calls `loadData(for:)`: no progress is reported.
  public func loadData(
    for request: DataRequest,
    reportingProgress progress: @escaping @Sendable (_ completed: Int, _ total: Int?) -> Void
  ) async throws(ImagePipelineError) -> DataResponse {
    try await loadData(for: request)
  }
}
