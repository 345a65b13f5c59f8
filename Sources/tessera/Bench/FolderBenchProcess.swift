import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Runs the commands `tessera bench folder` needs (tmux, vips, timg, chafa) with posix_spawn
/// and waitpid: Foundation's `Process.waitUntilExit` was seen to wait forever on a tmux client
/// (docs/DESIGN.md, "Tests spawn with posix_spawn").
enum FolderBenchProcess {
  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  /// Runs `arguments` and returns its standard output (when `capturing`; a command that
  /// leaves a daemon behind, like `tmux new-session`, must not be captured: the daemon would
  /// hold the pipe open forever); throws when it exits non-zero.
  @discardableResult
  static func run(
    _ arguments: [String], environment: [String: String] = [:], capturing: Bool = true
  ) throws -> String {
    let command = ["/usr/bin/env"] + environment.map { "\($0.key)=\($0.value)" } + arguments
    let (status, output) = try spawn(command, capturing: capturing)
    guard status == 0 else {
      throw Failure(
        description: "\(arguments.prefix(3).joined(separator: " ")) exited with \(status)")
    }
    return output
  }

  /// Milliseconds `arguments` takes from start to exit, its output thrown away (as when a
  /// contact sheet is piped to a file; the same for every contender).
  static func time(_ arguments: [String]) -> Double {
    let start = ContinuousClock.now
    guard (try? spawn(arguments, capturing: false)) != nil else { return .nan }
    return (ContinuousClock.now - start).nanoseconds / 1e6
  }

  private static func spawn(_ arguments: [String], capturing: Bool) throws -> (Int32, String) {
    var pipe: [Int32] = [-1, -1]
    if capturing {
      guard Glibc.pipe(&pipe) == 0 else { throw Failure(description: "pipe failed: \(errno)") }
    }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    if capturing {
      posix_spawn_file_actions_adddup2(&actions, pipe[1], 1)
      posix_spawn_file_actions_addclose(&actions, pipe[0])
      posix_spawn_file_actions_addclose(&actions, pipe[1])
    } else {
      posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    }
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    // Children start with no signal blocked and default handlers, so a tmux server and its
    // gallery stop on kill-server.
    var none = sigset_t()
    sigemptyset(&none)
    posix_spawnattr_setsigmask(&attributes, &none)
    var defaults = sigset_t()
    sigemptyset(&defaults)
    for signal in [SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGPIPE, SIGCHLD, SIGTSTP, SIGCONT, SIGWINCH] {
      sigaddset(&defaults, signal)
    }
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setflags(
      &attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    var pid: pid_t = 0
    let spawned = posix_spawnp(&pid, arguments[0], &actions, &attributes, &argv, environ)
    if capturing { close(pipe[1]) }
    guard spawned == 0 else {
      if capturing { close(pipe[0]) }
      throw Failure(description: "cannot run \(arguments[0]): error \(spawned)")
    }
    var output = [UInt8]()
    if capturing {
      var buffer = [UInt8](repeating: 0, count: 65_536)
      while true {
        let count = read(pipe[0], &buffer, buffer.count)
        if count > 0 {
          output += buffer[0..<count]
        } else if count < 0 && errno == EINTR {
          continue
        } else {
          break
        }
      }
      close(pipe[0])
    }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    let exitStatus = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    return (exitStatus, String(decoding: output, as: UTF8.self))
  }
}
