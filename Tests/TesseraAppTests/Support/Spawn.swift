import Foundation
import TesseraUtilities

#if canImport(Glibc)
  import Glibc
#endif

/// Runs a program and waits for it with posix_spawn and waitpid. Foundation's `Process` was
/// seen to leave a child unreaped and `waitUntilExit` waiting forever when called from a
/// test's task; this has no run loop to get wrong.
enum Spawn {
  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  /// Exit status and what it printed (stdout and stderr together, when `capturing`).
  static func run(
    _ arguments: [String], capturing: Bool = true
  ) throws -> (
    status: Int32, output: String
  ) {
    var pipe: [Int32] = [-1, -1]
    if capturing {
      guard Glibc.pipe(&pipe) == 0 else { throw Failure(description: "pipe failed: \(errno)") }
    }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    if capturing {
      posix_spawn_file_actions_adddup2(&actions, pipe[1], 1)
      posix_spawn_file_actions_adddup2(&actions, pipe[1], 2)
      posix_spawn_file_actions_addclose(&actions, pipe[0])
      posix_spawn_file_actions_addclose(&actions, pipe[1])
    } else {
      // A daemon started this way must not hold our descriptors open.
      posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
      posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    // An argument carrying a name that is not UTF-8 goes as its bytes (`FileSystemName`).
    var argv: [UnsafeMutablePointer<CChar>?] =
      arguments.map { FileSystemName.withCString($0) { strdup($0) } } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    Self.resetSignals(&attributes)
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

  /// A child inherits the blocked-signal mask and ignored signals of the test process (the
  /// test runner blocks some); a tmux server and its gallery would then ignore SIGTERM and
  /// SIGHUP and outlive the test. Children start with nothing blocked and default handlers.
  static func resetSignals(_ attributes: inout posix_spawnattr_t) {
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
  }
}
