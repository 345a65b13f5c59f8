import Foundation

/// A value behind a lock, for the few counters other threads (the pipeline's) touch.
/// Every access is O(1) plus the body's cost.
final class Locked<Value>: @unchecked Sendable {
  // Unchecked: `value` is only read or written while `lock` is held.
  private let lock = NSLock()
  private var value: Value

  init(_ value: Value) { self.value = value }

  func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }
}
