import Foundation
import TesseraImages
import TesseraUtilities

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Loads http(s) URLs through Foundation's URLSession (and refuses `file:` URLs: local folders
/// are read by the pipeline itself).
///
/// It streams the body and stops as soon as it passes `DataRequest.maxBytes` (or at once when
/// Content-Length already says so), reports progress as the body arrives, sends conditional
/// headers and hands a 304 back as a response.
///
/// URLSession's own cache is off (`urlCache = nil`, `.reloadIgnoringLocalCacheData`): the
/// pipeline's disk cache does HTTP caching and must see the 304s, and a second on-disk copy of
/// every image (Foundation's `org.swift.foundation.URLCache` folder) would only cost space.
///
/// Timeouts: URLSession on Linux has only a session-wide idle timeout in whole seconds, which
/// this loader sets from `requestTimeout`. The deadline for a whole transfer
/// (`DataRequest.timeout`, `ImagePipeline.Configuration.requestTimeout`) is enforced by the
/// pipeline around the loader.
public final class URLSessionDataLoader: DataLoading {
  private let session: URLSession
  private let delegate: SessionDelegate

  /// - Parameters:
  ///   - maxConnectionsPerHost: connections URLSession opens to one host.
  ///   - requestTimeout: seconds without progress before a load fails with `.timedOut`
  ///     (rounded up to whole seconds: Linux's URLSession reads less than one as none).
  ///   - resourceTimeout: seconds a whole download may take, however steadily it progresses.
  ///   Both timeouts are clamped into `ImageLimits.requestTimeout` (1 s to an hour).
  public init(
    maxConnectionsPerHost: Int = 6, requestTimeout: TimeInterval = 30,
    resourceTimeout: TimeInterval = 120
  ) {
    let configuration = URLSessionConfiguration.ephemeral
    let timeouts = ImageLimits.requestTimeout
    configuration.timeoutIntervalForRequest = requestTimeout.rounded(.up).clamped(to: timeouts)
    configuration.urlCache = nil
    configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
    configuration.httpMaximumConnectionsPerHost = max(1, maxConnectionsPerHost)
    configuration.timeoutIntervalForResource = resourceTimeout.clamped(to: timeouts)
    let delegate = SessionDelegate()
    self.delegate = delegate
    self.session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
  }

  deinit { session.finishTasksAndInvalidate() }

  /// The session's configuration, as URLSession reports it.
  var sessionConfiguration: URLSessionConfiguration { session.configuration }

  /// Loads `request.url` with no progress reports.
  public func loadData(for request: DataRequest) async throws(ImagePipelineError) -> DataResponse {
    try await loadData(for: request, reportingProgress: { _, _ in })
  }

  /// Loads `request.url`, calling `progress` as the body arrives with the bytes so far and
  /// the total the server announced (nil when it did not).
  public func loadData(
    for request: DataRequest,
    reportingProgress progress: @escaping @Sendable (_ completed: Int, _ total: Int?) -> Void
  ) async throws(ImagePipelineError) -> DataResponse {
    // An HTTP loader never opens local files: the pipeline reads a local folder's files
    // itself (`LocalFileReader`), and only for requests that say they come from one.
    if request.url.isFileURL {
      throw .schemeNotAllowed(url: request.url.absoluteString, source: .network)
    }
    guard let scheme = request.url.scheme?.lowercased(), scheme == "http" || scheme == "https"
    else { throw .invalidURL(request.url.absoluteString) }
    // Whole seconds: Linux's URLSession truncates, and would turn 0.5 into "no timeout".
    var urlRequest = URLRequest(
      url: request.url, cachePolicy: .reloadIgnoringLocalCacheData,
      timeoutInterval: request.timeout.rounded(.up).clamped(to: ImageLimits.requestTimeout))
    urlRequest.setValue("image/*, */*;q=0.5", forHTTPHeaderField: "Accept")
    for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
    if let etag = request.ifNoneMatch {
      urlRequest.setValue(etag, forHTTPHeaderField: "If-None-Match")
    }
    if let date = request.ifModifiedSince {
      urlRequest.setValue(date, forHTTPHeaderField: "If-Modified-Since")
    }
    let task = session.dataTask(with: urlRequest)
    task.priority =
      switch request.priority {
      case .veryLow, .low: URLSessionTask.lowPriority
      case .normal: URLSessionTask.defaultPriority
      case .high, .veryHigh: URLSessionTask.highPriority
      }
    let delegate = self.delegate
    let result = await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        delegate.register(
          task, maxBytes: request.maxBytes, progress: progress, continuation: continuation)
        task.resume()
        if Task.isCancelled { task.cancel() }
      }
    } onCancel: {
      task.cancel()
    }
    return try result.get()
  }

}

/// Collects each data task's response and body, enforcing its byte limit, and resumes the
/// waiting `loadData` when the task completes. O(1) bookkeeping per callback.
private final class SessionDelegate: NSObject, URLSessionDataDelegate, Sendable {
  private struct Pending {
    let continuation: CheckedContinuation<Result<DataResponse, ImagePipelineError>, Never>
    let maxBytes: Int
    let progress: @Sendable (Int, Int?) -> Void
    var response: HTTPURLResponse?
    var body = Data()
    var overLimit: Int?
  }

  private let pending = Locked<[Int: Pending]>([:])

  func register(
    _ task: URLSessionTask, maxBytes: Int, progress: @escaping @Sendable (Int, Int?) -> Void,
    continuation: CheckedContinuation<Result<DataResponse, ImagePipelineError>, Never>
  ) {
    pending.withLock {
      $0[task.taskIdentifier] = Pending(
        continuation: continuation, maxBytes: maxBytes, progress: progress)
    }
  }

  func urlSession(
    _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
  ) {
    let allow = pending.withLock { pending -> Bool in
      guard var entry = pending[dataTask.taskIdentifier] else { return false }
      entry.response = response as? HTTPURLResponse
      // Content-Length as URLSession parsed it: -1 when absent, else non-negative Int64,
      // compared before anything is allocated for it.
      let expected = response.expectedContentLength
      if expected > Int64(entry.maxBytes) {
        entry.overLimit = Int(clamping: expected)
      }
      pending[dataTask.taskIdentifier] = entry
      return entry.overLimit == nil
    }
    completionHandler(allow ? .allow : .cancel)
  }

  func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
    let report = pending.withLock { pending -> (overLimit: Bool, progress: Progress?) in
      guard var entry = pending[dataTask.taskIdentifier] else { return (false, nil) }
      entry.body.append(data)
      if entry.body.count > entry.maxBytes { entry.overLimit = entry.body.count }
      pending[dataTask.taskIdentifier] = entry
      let expected = entry.response?.expectedContentLength ?? -1
      let total = expected >= 0 ? Int(clamping: expected) : nil
      let progress = Progress(handler: entry.progress, completed: entry.body.count, total: total)
      return (entry.overLimit != nil, entry.overLimit == nil ? progress : nil)
    }
    if report.overLimit { dataTask.cancel() }
    report.progress.map { $0.handler($0.completed, $0.total) }
  }

  /// One progress report, made under the lock and delivered outside it.
  private struct Progress {
    let handler: @Sendable (Int, Int?) -> Void
    let completed: Int
    let total: Int?
  }

  func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
    guard let entry = pending.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else {
      return
    }
    entry.continuation.resume(returning: Self.result(of: entry, error: error))
  }

  private static func result(
    of entry: Pending, error: Error?
  ) -> Result<
    DataResponse, ImagePipelineError
  > {
    if let overLimit = entry.overLimit {
      return .failure(.tooLarge(.bytes(overLimit, limit: entry.maxBytes)))
    }
    if let error {
      let code = (error as? URLError)?.code ?? URLError.Code(rawValue: (error as NSError).code)
      switch code {
      case .timedOut: return .failure(.timedOut)
      case .cancelled: return .failure(.cancelled)
      default: return .failure(.networkFailed(error.localizedDescription))
      }
    }
    guard let http = entry.response else {
      return .failure(.networkFailed("no HTTP response"))
    }
    var headers: [String: String] = [:]
    for (name, value) in http.allHeaderFields {
      if let name = name as? String, let value = value as? String { headers[name] = value }
    }
    return .success(DataResponse(statusCode: http.statusCode, headers: headers, data: entry.body))
  }
}
