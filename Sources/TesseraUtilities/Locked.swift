import Foundation

/// A value guarded by a lock, shareable across threads and tasks. Critical sections stay short
/// and never await. (`Synchronization.Mutex` would do, but needs macOS 15.)
///
/// `@unchecked Sendable` is sound because `value` is only reachable inside `withLock`.
///
/// - Complexity: `withLock` is O(1) plus the body's cost.
package final class Locked<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var value: Value

  package init(_ value: Value) { self.value = value }

  /// Runs `body` with exclusive access to the value.
  package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }
}
