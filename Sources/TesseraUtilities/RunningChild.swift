import CProcess
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A long-running helper program (a video's `ffmpeg` decode) whose standard output is read
/// through a pipe while it runs. Standard input is `/dev/null`; standard error goes to an
/// unlinked temporary file, so a chatty child can never block on it, and its last words are
/// there to say why it failed. ``stop()`` kills and reaps it: no child outlives its owner.
/// The descriptors close when the last reference goes, so a reader blocked in ``read(into:)``
/// (which holds one) sees the output's end after a stop, never a descriptor reused.
///
/// `@unchecked Sendable`: the descriptors and pid are set once; the reaped status is guarded.
package final class RunningChild: @unchecked Sendable {
  package let pid: pid_t
  /// The read end of the child's standard output. Closed by ``stop()``.
  package let output: Int32
  private let errors: Int32
  private let state = Locked<(reaped: Bool, status: Int32)>((false, 0))

  /// Starts `program` (found on `PATH`) with `arguments`; nil when it cannot be started
  /// (not installed, no descriptors left).
  package init?(_ program: String, arguments: [String]) {
    var pipeEnds: [Int32] = [0, 0]
    guard tessera_pipe_cloexec(&pipeEnds) == 0 else { return nil }
    let (readEnd, writeEnd) = (pipeEnds[0], pipeEnds[1])
    var template = Array("/tmp/tessera-child-XXXXXX".utf8CString)
    let errorFile = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    guard errorFile >= 0 else {
      close(readEnd)
      close(writeEnd)
      return nil
    }
    _ = fcntl(errorFile, F_SETFD, FD_CLOEXEC)
    template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_adddup2(&actions, writeEnd, 1)
    posix_spawn_file_actions_adddup2(&actions, errorFile, 2)
    let argv = ([program] + arguments).map { FileSystemName.withCString($0) { strdup($0) } } + [nil]
    defer { argv.forEach { free($0) } }
    var pid: pid_t = 0
    let spawned = ChildEnvironment.withPointer {
      posix_spawnp(&pid, program, &actions, nil, argv, $0)
    }
    close(writeEnd)
    guard spawned == 0 else {
      close(readEnd)
      close(errorFile)
      return nil
    }
    self.pid = pid
    output = readEnd
    errors = errorFile
  }

  deinit {
    stop()
    close(output)
    close(errors)
  }

  /// Reads up to `buffer.count` bytes of the child's output into `buffer`: the count read, 0
  /// at its end (or once stopped), -1 on an error. Blocks until some bytes come.
  package func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
    while true {
      let count = Glibc.read(output, buffer.baseAddress, buffer.count)
      if count < 0 && errno == EINTR { continue }
      return count
    }
  }

  /// Exactly `count` bytes of the child's output; nil when it ends (or fails) first.
  package func read(exactly count: Int) -> [UInt8]? {
    var bytes = [UInt8](repeating: 0, count: max(0, count))
    var filled = 0
    while filled < bytes.count {
      let got = bytes.withUnsafeMutableBytes { buffer in
        read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]))
      }
      guard got > 0 else { return nil }
      filled += got
    }
    return bytes
  }

  /// Kills the child (if it still runs) and reaps it; the output's reader then sees its end.
  /// Idempotent. A child not yet reaped keeps its pid (a zombie at worst), so the kill can
  /// reach no other process.
  package func stop() {
    state.withLock { state in
      guard !state.reaped else { return }
      kill(pid, SIGKILL)
      state = (true, Self.waitBlocking(pid))
    }
  }

  /// Waits for a child whose output ended to exit, at most `limit` (then it is killed), and
  /// returns how it ended: its exit status, or 128 + the signal that ended it.
  @discardableResult
  package func reap(within limit: Duration = .seconds(1)) -> Int32 {
    let deadline = ContinuousClock.now + limit
    while true {
      let ended: Int32? = state.withLock { state in
        guard !state.reaped else { return state.status }
        var status: Int32 = 0
        let result = waitpid(pid, &status, WNOHANG)
        if result == pid {
          state = (true, Self.decode(status))
        } else if result < 0 && errno != EINTR {
          state = (true, -1)
        } else if ContinuousClock.now >= deadline {
          kill(pid, SIGKILL)
          state = (true, Self.waitBlocking(pid))
        } else {
          return nil
        }
        return state.status
      }
      if let ended { return ended }
      usleep(5000)
    }
  }

  private static func waitBlocking(_ pid: pid_t) -> Int32 {
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 {
      guard errno == EINTR else { return -1 }
    }
    return decode(status)
  }

  private static func decode(_ status: Int32) -> Int32 {
    let signal = status & 0x7F
    return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
  }

  /// Whether the child has been reaped (it ended and ``reap()`` or ``stop()`` ran).
  package var isReaped: Bool { state.withLock { $0.reaped } }

  /// The last `limit` bytes the child wrote to its standard error, as text, trimmed.
  package func lastErrorText(limit: Int = 2048) -> String {
    let end = lseek(errors, 0, SEEK_END)
    guard end > 0 else { return "" }
    let start = max(0, end - off_t(limit))
    var bytes = [UInt8](repeating: 0, count: Int(end - start))
    let count = bytes.withUnsafeMutableBytes { pread(errors, $0.baseAddress, $0.count, start) }
    guard count > 0 else { return "" }
    return String(decoding: bytes[0..<count], as: UTF8.self)
      .trimmingCharacters(in: .whitespacesAndNewlines)
  }
}
