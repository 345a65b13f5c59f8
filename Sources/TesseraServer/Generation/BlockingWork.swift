import Dispatch

/// Runs CPU-heavy synchronous work (painting and encoding an image) on a Dispatch queue, never
/// on Swift's cooperative pool: the pool has one thread per core, and a run of large originals
/// must not starve the event loops' tasks that answer the feed and users routes.
enum BlockingWork {
  private static let queue = DispatchQueue(
    label: "tessera.server.generation", qos: .userInitiated, attributes: .concurrent)

  /// `work`'s result, computed on the queue while the caller is suspended.
  static func run<Value: Sendable>(
    _ work: @escaping @Sendable () throws -> Value
  ) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
      queue.async { continuation.resume(with: Result { try work() }) }
    }
  }
}
