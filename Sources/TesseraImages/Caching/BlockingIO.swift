import Foundation

/// Blocking file-system work (disk-cache writes and their `flock`) moved off the cooperative
/// pool: its threads are as many as the cores and shared by every task in the process, so one
/// waiting on a lock or a slow disk would stall unrelated work.
enum BlockingIO {
  /// Runs `body` on a Dispatch queue and returns its result.
  static func run<Result: Sendable>(_ body: @escaping @Sendable () -> Result) async -> Result {
    await withCheckedContinuation { continuation in
      DispatchQueue.global(qos: .userInitiated).async { continuation.resume(returning: body()) }
    }
  }
}
