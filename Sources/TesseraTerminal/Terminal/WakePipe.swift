#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The pipe that wakes the input thread out of its wait. Shared by the session, its input
/// thread and whoever stops that thread, and closed only when the last of them lets go: a
/// session that ends while its thread still polls the read end (or a consumer's late
/// "stop" that writes to it) must never meet a closed descriptor, whose number the process
/// may meanwhile have given to another file.
final class WakePipe: Sendable {
  /// The read end: non-blocking, close-on-exec.
  let read: Int32
  /// The write end: non-blocking, close-on-exec.
  let write: Int32

  init() throws(TerminalError) {
    var fds: [Int32] = [-1, -1]
    guard pipe(&fds) == 0 else { throw .systemCall("pipe", errno: errno) }
    for fd in fds {
      _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
      _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    }
    (read, write) = (fds[0], fds[1])
  }

  deinit {
    close(read)
    close(write)
  }

  /// Writes one byte (a full pipe already wakes the reader, so a failed write loses nothing).
  func wake(_ byte: UInt8) {
    var byte = byte
    _ = Glibc.write(write, &byte, 1)
  }
}
