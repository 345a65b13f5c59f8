import Foundation
import TesseraUtilities

/// While the gallery owns the terminal, whatever writes to standard error — libvips, libjxl,
/// GLib, a Swift runtime warning — goes to a log file instead of over the screen:
/// `$XDG_STATE_HOME/tessera/tessera.log` (`~/.local/state/tessera/tessera.log`).
///
/// File descriptor 2 becomes a pipe; a thread of its own copies what arrives to the log, at
/// most ``sessionLimit`` bytes a session (the rest is counted, not kept), and a log over
/// ``fileLimit`` is started afresh. ``stop()`` puts the original standard error back, so the
/// one line naming the log can be printed where the person looks after the gallery.
///
/// - Complexity: O(bytes written to standard error), on its own thread; nothing on the
///   gallery's.
final class StandardErrorLog: @unchecked Sendable {
  static let sessionLimit = 256 * 1024
  static let fileLimit = 1024 * 1024

  let path: String
  private let savedError: Int32
  /// The descriptor taken over: standard error, or another a test gives (one of its own, so
  /// the children other tests start meanwhile do not inherit the pipe and keep it open).
  private let descriptor: Int32
  private let logFile: Int32
  private let readEnd: Int32
  private let finished = DispatchSemaphore(value: 0)
  /// Bytes kept and bytes dropped; written by the copying thread, read after `finished`.
  private var kept = 0
  private var dropped = 0

  /// Redirects standard error to the log, or returns nil (leaving it as it was) when the
  /// state folder is unknown or cannot be written. Standard error stays inherited by the
  /// children started meanwhile (their messages go to the log too); another `descriptor` is
  /// not inherited.
  init?(
    environment: [String: String] = ProcessInfo.processInfo.environment,
    descriptor: Int32 = STDERR_FILENO
  ) {
    self.descriptor = descriptor
    guard let state = BaseDirectory.state.path(environment: environment) else { return nil }
    let folder = state + "/tessera"
    try? FileManager.default.createDirectory(
      atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    path = folder + "/tessera.log"
    var status = stat()
    let startAfresh = lstat(path, &status) == 0 && Int(status.st_size) > Self.fileLimit
    let flags = O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW | (startAfresh ? O_TRUNC : 0)
    logFile = open(path, flags, 0o600)
    guard logFile >= 0 else { return nil }
    var ends: [Int32] = [0, 0]
    savedError = fcntl(descriptor, F_DUPFD_CLOEXEC, 3)
    guard savedError >= 0, pipe(&ends) == 0 else {
      close(logFile)
      if savedError >= 0 { close(savedError) }
      return nil
    }
    readEnd = ends[0]
    _ = fcntl(readEnd, F_SETFD, FD_CLOEXEC)
    dup2(ends[1], descriptor)
    if descriptor != STDERR_FILENO { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
    close(ends[1])
    let thread = Thread { [self] in copyUntilClosed() }
    thread.name = "tessera.stderr-log"
    thread.start()
  }

  private func copyUntilClosed() {
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = read(readEnd, &buffer, buffer.count)
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { break }
      let room = max(0, Self.sessionLimit - kept)
      let keep = min(count, room)
      if keep > 0 {
        let written = buffer.withUnsafeBytes { write(logFile, $0.baseAddress, keep) }
        kept += max(0, written)
      }
      dropped += count - keep
    }
    close(readEnd)
    close(logFile)
    finished.signal()
  }

  /// Puts standard error back and returns what was written to it meanwhile: the bytes kept in
  /// the log and those dropped past ``sessionLimit``. Waits up to a second for the copying
  /// thread to see the pipe close (a child still holding it open would keep it longer).
  func stop() -> (kept: Int, dropped: Int) {
    dup2(savedError, descriptor)
    close(savedError)
    guard finished.wait(timeout: .now() + 1) == .success else { return (0, 0) }
    return (kept, dropped)
  }

  /// The line for after the gallery: nil when nothing was written.
  func summary(kept: Int, dropped: Int) -> String? {
    guard kept + dropped > 0 else { return nil }
    let home = ProcessInfo.processInfo.environment["HOME"] ?? ""
    let shown =
      !home.isEmpty && path.hasPrefix(home + "/") ? "~" + path.dropFirst(home.count) : path[...]
    let extra = dropped > 0 ? " (\(dropped) more bytes not kept)" : ""
    return "tessera: messages from the libraries are in \(shown)\(extra)"
  }
}
