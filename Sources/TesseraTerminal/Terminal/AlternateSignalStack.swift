#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A stack for signal handlers of their own, per thread: a stack overflow leaves no room on
/// the thread's stack for the SIGSEGV handler that restores the terminal, so the handlers are
/// installed with `SA_ONSTACK` and the threads that touch the terminal get one of these.
enum AlternateSignalStack {
  /// Room for the restore handler and whatever handler it chains to (the Swift runtime's
  /// backtracer spawns a process of its own; it needs little stack here).
  static let size = 64 * 1024

  /// Registers an alternate stack for the calling thread unless it has one already (the
  /// Swift runtime may have set one). Returns the memory it allocated, for ``remove(_:)``
  /// when the thread ends; nil when it kept an existing stack or could not register.
  ///
  /// - Complexity: O(1); one allocation of ``size`` bytes.
  @discardableResult
  static func installForCurrentThread() -> UnsafeMutableRawPointer? {
    if isInstalledOnCurrentThread { return nil }
    let memory = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
    var stack = stack_t()
    stack.ss_sp = memory
    stack.ss_size = size
    stack.ss_flags = 0
    guard sigaltstack(&stack, nil) == 0 else {
      memory.deallocate()
      return nil
    }
    return memory
  }

  /// Unregisters the calling thread's stack and frees `memory` (from
  /// ``installForCurrentThread()``), before the thread ends.
  static func remove(_ memory: UnsafeMutableRawPointer?) {
    guard let memory else { return }
    var current = stack_t()
    guard sigaltstack(nil, &current) == 0, current.ss_sp == memory else { return }
    var disable = stack_t()
    disable.ss_flags = Int32(SS_DISABLE)
    guard sigaltstack(&disable, nil) == 0 else { return }
    memory.deallocate()
  }

  /// Whether the calling thread has an alternate signal stack.
  static var isInstalledOnCurrentThread: Bool {
    var current = stack_t()
    guard sigaltstack(nil, &current) == 0 else { return false }
    return current.ss_flags & Int32(SS_DISABLE) == 0
  }
}
