import Foundation

/// The pipeline's deadline for one download, whatever the data loader does: the load races a
/// timer on the pipeline's clock, and the loser is cancelled. This is what makes
/// `requestTimeout` mean the same with every loader and on every platform (Foundation's
/// URLSession on Linux only has a session-wide idle timeout, in whole seconds).
enum TransferDeadline {
  /// `body`'s result, or `.timedOut` once `seconds` have passed on `clock` (then `body` is
  /// cancelled, and awaited: a loader that honours cancellation leaves nothing running). When
  /// the calling task is cancelled, so is `body`.
  static func run<Value: Sendable>(
    seconds: TimeInterval, clock: any Clock<Duration>,
    _ body: @escaping @Sendable () async throws(ImagePipelineError) -> Value
  ) async throws(ImagePipelineError) -> Value {
    let limit = Duration.milliseconds(Int64(seconds * 1_000))
    let result = await withTaskGroup(of: Result<Value, ImagePipelineError>?.self) { group in
      group.addTask {
        do throws(ImagePipelineError) {
          return .success(try await body())
        } catch {
          return .failure(error)
        }
      }
      group.addTask {
        do {
          try await clock.sleep(for: limit)
          return .failure(.timedOut)
        } catch {
          return nil  // cancelled: the load finished first, or the caller gave up
        }
      }
      while let next = await group.next() {
        if let result = next {
          group.cancelAll()
          return result
        }
      }
      return Result<Value, ImagePipelineError>.failure(.cancelled)
    }
    return try result.get()
  }
}
