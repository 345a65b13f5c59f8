import Foundation
import Logging
import TesseraTestSupport

@testable import TesseraImages

/// A data loader the test drives: every call is recorded and held until the test releases
/// it (or answered at once by `respond`), and cancellation is observed. A held call's progress
/// handler can be called by the test (`reportProgress`).
final class HeldDataLoader: DataLoading {
  typealias Answer = Result<DataResponse, ImagePipelineError>
  typealias ProgressHandler = @Sendable (Int, Int?) -> Void

  private struct State {
    var requests: [DataRequest] = []
    var progressHandlers: [Int: ProgressHandler] = [:]
    var held: [Int: CheckedContinuation<Answer, Never>] = [:]
    var cancelledBeforeHeld: Set<Int> = []
    /// Answers released for calls recorded but not yet held: a test that waits for a call
    /// and releases it can be faster than the call's own step from recording to holding.
    var releasedBeforeHeld: [Int: Answer] = [:]
    var cancelled: [Int] = []

    var snapshot: Snapshot {
      Snapshot(calls: requests.count, cancelled: cancelled.count, held: held.count)
    }
  }

  struct Snapshot: Sendable {
    var calls: Int
    var cancelled: Int
    var held: Int
  }

  private let state = WaitableState(State())
  /// Answers a call at once when it returns non-nil; otherwise the call is held.
  private let respond: @Sendable (DataRequest) -> Answer?

  init(respond: @escaping @Sendable (DataRequest) -> Answer? = { _ in nil }) {
    self.respond = respond
  }

  func loadData(for request: DataRequest) async throws(ImagePipelineError) -> DataResponse {
    try await loadData(for: request, reportingProgress: { _, _ in })
  }

  func loadData(
    for request: DataRequest, reportingProgress progress: @escaping ProgressHandler
  ) async throws(ImagePipelineError) -> DataResponse {
    let index = record(request, progress: progress)
    if let answer = respond(request) { return try answer.get() }
    let answer = await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        let early = state.withLock { state -> Answer? in
          if state.cancelledBeforeHeld.contains(index) { return .failure(.cancelled) }
          if let answer = state.releasedBeforeHeld.removeValue(forKey: index) { return answer }
          state.held[index] = continuation
          return nil
        }
        if let early { continuation.resume(returning: early) }
      }
    } onCancel: {
      let continuation = state.withLock { state -> CheckedContinuation<Answer, Never>? in
        state.cancelled.append(index)
        if let held = state.held.removeValue(forKey: index) { return held }
        state.cancelledBeforeHeld.insert(index)
        return nil
      }
      continuation?.resume(returning: .failure(.cancelled))
    }
    return try answer.get()
  }

  var requests: [DataRequest] { state.withLock { $0.requests } }
  var callCount: Int { state.withLock { $0.requests.count } }
  var cancelledCount: Int { state.withLock { $0.cancelled.count } }

  /// Answers call number `index` (0-based, in call order): at once if it is held, else as
  /// soon as it is (a call that was recorded but has not reached its hold yet).
  func release(_ index: Int, with answer: Answer) {
    let continuation = state.withLock { state -> CheckedContinuation<Answer, Never>? in
      if let held = state.held.removeValue(forKey: index) { return held }
      if index < state.requests.count, !state.cancelled.contains(index) {
        state.releasedBeforeHeld[index] = answer
      }
      return nil
    }
    continuation?.resume(returning: answer)
  }

  /// Answers every held call for `url`.
  func release(url: URL, with answer: Answer) {
    let continuations = state.withLock { state in
      let indices = state.held.keys.filter { state.requests[$0].url == url }
      return indices.compactMap { state.held.removeValue(forKey: $0) }
    }
    for continuation in continuations { continuation.resume(returning: answer) }
  }

  /// Returns once `predicate` holds for the loader's state, or once the task is cancelled.
  func wait(until predicate: @escaping @Sendable (Snapshot) -> Bool) async {
    await state.wait { predicate($0.snapshot) }
  }

  /// Returns once `count` calls are being held.
  func waitForHeld(_ count: Int) async { await wait { $0.held >= count } }

  /// Calls the progress handler of call number `index` (0-based), as a loader would while
  /// the body arrives.
  func reportProgress(_ index: Int, completed: Int, total: Int?) {
    let handler = state.withLock { $0.progressHandlers[index] }
    handler?(completed, total)
  }

  private func record(_ request: DataRequest, progress: @escaping ProgressHandler) -> Int {
    state.withLock { state in
      state.requests.append(request)
      state.progressHandlers[state.requests.count - 1] = progress
      return state.requests.count - 1
    }
  }
}

/// Image completions delivered on any thread.
typealias Completions = Collector<Result<Image, ImagePipelineError>>

/// Collects values delivered on any thread and lets a test await a number of them.
final class Collector<Outcome: Sendable>: Sendable {
  /// Results by tag.
  private let results = WaitableState<[Int: Outcome]>([:])

  /// A completion handler that records its result under `tag`.
  func handler(_ tag: Int) -> @Sendable (Outcome) -> Void {
    { result in self.results.withLock { $0[tag] = result } }
  }

  /// Returns once `count` results have arrived, or once the task is cancelled.
  func wait(for count: Int) async { await results.wait { $0.count >= count } }

  subscript(tag: Int) -> Outcome? { results.withLock { $0[tag] } }
  var count: Int { results.withLock { $0.count } }
  var all: [Outcome] { results.withLock { Array($0.values) } }
}

extension Result where Success == Image, Failure == ImagePipelineError {
  var image: Image? { try? get() }
  var error: ImagePipelineError? {
    if case .failure(let error) = self { return error }
    return nil
  }
}

/// A pipeline over `loader` without disk cache unless given. Its download deadline runs on
/// `clock` (a manual one by default, so no test times out on a slow machine unless it says so).
func makePipeline(
  _ loader: any DataLoading, memory: (any ImageCaching)? = MemoryCache(costLimit: 64 << 20),
  disk: (any DataCaching)? = nil, thumbnails: ThumbnailCache? = nil, downloads: Int = 6,
  decodes: Int = 2, maxPixels: Int = 100_000_000,
  maxBytes: Int = 50 << 20, timeout: TimeInterval = 30,
  clock: any Clock<Duration> = ManualClock(), logger: Logger = Logger(label: "tessera.images")
) -> ImagePipeline {
  // No thumbnail folders unless a test gives one: tests never write into the user's own.
  var configuration = ImagePipeline.Configuration(
    dataLoader: loader, memoryCache: memory, diskCache: disk, thumbnailCache: thumbnails,
    maxConcurrentDownloads: downloads,
    maxConcurrentDecodes: decodes, requestTimeout: timeout, maxResponseBytes: maxBytes,
    maxPixels: maxPixels, logger: logger)
  configuration.clock = clock
  return ImagePipeline(configuration: configuration)
}

extension Result where Failure == ImagePipelineError {
  /// The value `body` returns, or the error it throws.
  init(_ body: () async throws(ImagePipelineError) -> Success) async {
    do throws(ImagePipelineError) {
      self = .success(try await body())
    } catch {
      self = .failure(error)
    }
  }
}
