import Foundation

/// What the pipeline asks a data loader for.
public struct DataRequest: Hashable, Sendable, CustomStringConvertible {
  public var url: URL
  /// Seconds without progress before the load fails with `.timedOut`.
  public var timeout: TimeInterval
  /// The largest body accepted; a loader should stop reading past it (`.tooLarge(.bytes)`).
  public var maxBytes: Int
  /// Validators of a stale cached copy. When either is set the request is conditional and a
  /// loader must hand back a 304 response as it is (not throw): the disk stage then reuses
  /// the bytes it already has.
  public var ifNoneMatch: String?
  public var ifModifiedSince: String?
  /// The urgency of the most urgent subscriber when the load started.
  public var priority: ImageRequest.Priority

  public init(
    url: URL, timeout: TimeInterval = 30, maxBytes: Int = 50 << 20, ifNoneMatch: String? = nil,
    ifModifiedSince: String? = nil, priority: ImageRequest.Priority = .normal
  ) {
    self.url = url
    self.timeout = timeout
    self.maxBytes = maxBytes
    self.ifNoneMatch = ifNoneMatch
    self.ifModifiedSince = ifModifiedSince
    self.priority = priority
  }

  public var isConditional: Bool { ifNoneMatch != nil || ifModifiedSince != nil }

  public var description: String {
    "DataRequest(\(url.absoluteString)\(isConditional ? " conditional" : ""))"
  }
}

/// What a data loader got back: the status, the headers (names lowercased) and the body.
public struct DataResponse: Sendable, CustomStringConvertible {
  public var statusCode: Int
  public var headers: [String: String]
  public var data: Data

  public init(statusCode: Int = 200, headers: [String: String] = [:], data: Data = Data()) {
    self.statusCode = statusCode
    self.headers = Dictionary(
      headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { _, last in last })
    self.data = data
  }

  /// The header named `name`, compared case-insensitively.
  public func header(_ name: String) -> String? { headers[name.lowercased()] }

  public var contentType: String? { header("content-type") }

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
  func loadData(for request: DataRequest) async throws(ImagePipelineError) -> DataResponse
}
