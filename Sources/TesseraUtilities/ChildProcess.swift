import CProcess
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Runs a short helper program (`tmux display-message`, a probe) and returns what it printed.
///
/// Standard input and error are `/dev/null`, so nothing the child says reaches the screen of a
/// full-screen app; its output is read through a pipe for at most `timeout` seconds, after
/// which the child is killed. Found on `PATH`, like a shell would.
package enum ChildProcess {
  /// The child's standard output (at most `limit` bytes) when it exits with status 0 within
  /// `timeout` seconds; nil otherwise (not found, failed, too slow).
  package static func output(
    of program: String, arguments: [String], timeout: Double, limit: Int = 1 << 16
  ) -> String? {
    var pipeEnds: [Int32] = [0, 0]
    // Close-on-exec from birth: no other child inherits either end; this one gets the write
    // end as its output through dup2, which clears the flag on the copy.
    guard tessera_pipe_cloexec(&pipeEnds) == 0 else { return nil }
    let (readEnd, writeEnd) = (pipeEnds[0], pipeEnds[1])
    defer { close(readEnd) }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_adddup2(&actions, writeEnd, 1)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let argv = ([program] + arguments).map { FileSystemName.withCString($0) { strdup($0) } } + [nil]
    defer { argv.forEach { free($0) } }
    var pid: pid_t = 0
    let spawned = ChildEnvironment.withPointer {
      posix_spawnp(&pid, program, &actions, nil, argv, $0)
    }
    close(writeEnd)
    guard spawned == 0 else { return nil }
    var output: [UInt8] = []
    let deadline = ContinuousClock.now + .milliseconds(Int(max(0, timeout) * 1000))
    var buffer = [UInt8](repeating: 0, count: 4096)
    var timedOut = false
    while true {
      let left = deadline - ContinuousClock.now
      let (seconds, attoseconds) = left.components
      let milliseconds = Int32(
        clamping: max(0, seconds * 1000 + attoseconds / 1_000_000_000_000_000))
      guard milliseconds > 0 else {
        timedOut = true
        break
      }
      var descriptor = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
      let ready = poll(&descriptor, 1, milliseconds)
      if ready < 0 && errno == EINTR { continue }
      guard ready > 0 else {
        timedOut = ready == 0
        break
      }
      let count = read(readEnd, &buffer, buffer.count)
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { break }
      output.append(contentsOf: buffer[0..<min(count, max(0, limit - output.count))])
    }
    if timedOut { kill(pid, SIGKILL) }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    let exitedCleanly = (status & 0x7F) == 0 && ((status >> 8) & 0xFF) == 0
    guard !timedOut, exitedCleanly else { return nil }
    return String(decoding: output, as: UTF8.self)
  }

  /// Runs `program` with `arguments`, `input` as its standard input (from an unlinked
  /// temporary file, so a child that never reads it cannot block the writer) and `output`
  /// as its standard output and error, and waits for it. Returns its exit status (128 + the
  /// signal's number when a signal ended it), or nil when it could not be started. Blocks:
  /// call it off the main actor.
  package static func run(
    _ program: String, arguments: [String], input: [UInt8], output: Int32
  ) -> Int32? {
    var template = Array("/tmp/tessera-input-XXXXXX".utf8CString)
    let inputFile = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    guard inputFile >= 0 else { return nil }
    _ = fcntl(inputFile, F_SETFD, FD_CLOEXEC)
    template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
    defer { close(inputFile) }
    var written = 0
    while written < input.count {
      let count = input[written...].withUnsafeBytes { write(inputFile, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { return nil }
      written += count
    }
    guard lseek(inputFile, 0, SEEK_SET) == 0 else { return nil }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, inputFile, 0)
    posix_spawn_file_actions_adddup2(&actions, output, 1)
    posix_spawn_file_actions_adddup2(&actions, output, 2)
    let argv = ([program] + arguments).map { FileSystemName.withCString($0) { strdup($0) } } + [nil]
    defer { argv.forEach { free($0) } }
    var pid: pid_t = 0
    // ETXTBSY: a script just written is still open for writing in a child another thread
    // forked meanwhile (until that child's exec closes it). It passes; try again, briefly.
    var spawned = ChildEnvironment.withPointer {
      posix_spawn(&pid, program, &actions, nil, argv, $0)
    }
    for _ in 0..<50 where spawned == ETXTBSY {
      usleep(20_000)
      spawned = ChildEnvironment.withPointer {
        posix_spawn(&pid, program, &actions, nil, argv, $0)
      }
    }
    guard spawned == 0 else { return nil }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 {
      guard errno == EINTR else { return nil }
    }
    let signal = status & 0x7F
    return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
  }
}
