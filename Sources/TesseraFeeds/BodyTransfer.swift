import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// One feed download as a session delegate: collects the body up to `maxBytes` and completes
/// exactly once, with whichever comes first of the answer, a refusal (status, size, redirect),
/// the deadline or a cancellation. Whatever finishes it also cancels the data task, so no byte
/// is read past the end. O(body) time and memory, the body bounded by `maxBytes`.
///
/// Safety: every mutable field is guarded by `lock`; URLSession calls the delegate on its own
/// queue and `finish` may come from any task.
final class BodyTransfer: NSObject, URLSessionDataDelegate, @unchecked Sendable {
  private let maxBytes: Int
  private let lock = NSLock()
  private var body = Data()
  private var task: URLSessionDataTask?
  private var outcome: Result<Data, FeedError>?
  private var continuation: CheckedContinuation<Result<Data, FeedError>, Never>?

  init(maxBytes: Int) {
    self.maxBytes = maxBytes
  }

  /// Starts `task` and returns its outcome; at once if `finish` already ran (cancelled before
  /// the start).
  func run(_ task: URLSessionDataTask) async -> Result<Data, FeedError> {
    await withCheckedContinuation { continuation in
      lock.lock()
      if let outcome {
        lock.unlock()
        task.cancel()
        continuation.resume(returning: outcome)
        return
      }
      self.task = task
      self.continuation = continuation
      lock.unlock()
      task.resume()
    }
  }

  /// Completes the download with `outcome` unless it already completed; cancels the task.
  func finish(_ outcome: Result<Data, FeedError>) {
    lock.lock()
    guard self.outcome == nil else {
      lock.unlock()
      return
    }
    self.outcome = outcome
    let continuation = continuation
    let task = task
    self.continuation = nil
    body = Data()
    lock.unlock()
    if case .failure = outcome, let task { Self.cancelOutsideTheDelegate(task) }
    continuation?.resume(returning: outcome)
  }

  /// swift-corelibs-foundation ignores `cancel()` called on the session's delegate queue (the
  /// transfer runs on, gigabytes past the cap); from any other thread it stops at once.
  private static func cancelOutsideTheDelegate(_ task: URLSessionDataTask) {
    DispatchQueue.global(qos: .userInitiated).async { task.cancel() }
  }

  func urlSession(
    _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
  ) {
    guard let http = response as? HTTPURLResponse else {
      finish(.failure(.network("the answer is not HTTP")))
      return completionHandler(.cancel)
    }
    guard http.statusCode == 200 else {
      finish(.failure(.badStatus(http.statusCode)))
      return completionHandler(.cancel)
    }
    // A stated length over the cap fails before any byte is read.
    guard response.expectedContentLength <= Int64(maxBytes) else {
      finish(.failure(.tooLarge(limit: maxBytes)))
      return completionHandler(.cancel)
    }
    completionHandler(.allow)
  }

  func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
    lock.lock()
    let fits = outcome == nil && data.count <= maxBytes - body.count
    if fits { body.append(data) }
    let finished = outcome != nil
    lock.unlock()
    if !fits && !finished { finish(.failure(.tooLarge(limit: maxBytes))) }
  }

  func urlSession(
    _ session: URLSession, task: URLSessionTask,
    willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest,
    completionHandler: @escaping (URLRequest?) -> Void
  ) {
    guard let url = request.url, HTTPFetcher.isWebURL(url) else {
      finish(.failure(.invalidURL(request.url?.absoluteString ?? "")))
      return completionHandler(nil)
    }
    completionHandler(request)
  }

  func urlSession(
    _ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?
  ) {
    if let error {
      finish(.failure(HTTPFetcher.transportError(error)))
    } else {
      lock.lock()
      let complete = body
      lock.unlock()
      finish(.success(complete))
    }
  }
}
