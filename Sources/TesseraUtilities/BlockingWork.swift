import Dispatch

/// Runs blocking work (file system calls) on a Dispatch queue, never on Swift's cooperative
/// pool: the pool has one thread per core, and a slow disk or network mount must not stall
/// every task of the process.
package enum BlockingWork {
  private static let queue = DispatchQueue(
    label: "tessera.feeds.blocking", qos: .userInitiated, attributes: .concurrent)

  /// `work`'s result, computed on the blocking queue while the caller is suspended.
  package static func run<Value: Sendable, Failure: Error>(
    _ work: @escaping @Sendable () throws(Failure) -> Value
  ) async throws(Failure) -> Value {
    let result: Result<Value, Failure> = await withCheckedContinuation { continuation in
      queue.async {
        continuation.resume(returning: Result { () throws(Failure) -> Value in try work() })
      }
    }
    return try result.get()
  }
}
