import Foundation
import TesseraGallery
import TesseraUtilities

#if canImport(Glibc)
  import Glibc
#endif

/// Child processes for the benches (tmux, the gallery, vips, timg, chafa) through posix_spawn
/// and waitpid: Foundation's `Process.waitUntilExit` was seen to wait forever for a tmux
/// client that had already exited (DESIGN.md, "Tests spawn with posix_spawn"). Children start
/// with no signal blocked and default handlers, so a tmux server and its gallery stop on
/// kill-server; standard input is /dev/null, standard error is dropped.
enum BenchSpawn {
  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  /// Starts `arguments` with /dev/null for input and output; returns its pid.
  static func start(_ arguments: [String]) throws -> pid_t {
    try spawn(arguments, outputFD: nil)
  }

  /// Runs `arguments` to the end: its exit status and standard output as text. A command that
  /// leaves a daemon behind (`tmux new-session`) must not be captured: the daemon would hold
  /// the pipe open forever.
  static func run(_ arguments: [String], capturing: Bool) throws -> (status: Int32, output: String)
  {
    let (status, bytes) = try runCapturingBytes(arguments, capturing: capturing)
    return (status, String(decoding: bytes, as: UTF8.self))
  }

  /// The same, with standard output as bytes (a terminal image encoder's escape codes).
  static func runCapturingBytes(
    _ arguments: [String], capturing: Bool = true
  ) throws -> (status: Int32, output: [UInt8]) {
    var pipe: [Int32] = [-1, -1]
    if capturing, Glibc.pipe(&pipe) != 0 { throw Failure(description: "pipe failed: \(errno)") }
    let pid: pid_t
    do {
      pid = try spawn(arguments, outputFD: capturing ? pipe : nil)
    } catch {
      if capturing { close(pipe[0]) }
      throw error
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
    return (wait(pid), output)
  }

  /// Waits for `pid` to exit and returns its status (128 + signal when killed).
  @discardableResult
  static func wait(_ pid: pid_t) -> Int32 {
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    return (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
  }

  private static func spawn(_ arguments: [String], outputFD pipe: [Int32]?) throws -> pid_t {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    if let pipe {
      posix_spawn_file_actions_adddup2(&actions, pipe[1], 1)
      posix_spawn_file_actions_addclose(&actions, pipe[0])
      posix_spawn_file_actions_addclose(&actions, pipe[1])
    } else {
      // A tmux server started this way must not hold our descriptors open.
      posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    }
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var pid: pid_t = 0
    let spawned = withChildAttributes { attributes in
      ChildEnvironment.withPointer {
        posix_spawnp(&pid, arguments[0], &actions, &attributes, &argv, $0)
      }
    }
    if let pipe { close(pipe[1]) }
    guard spawned == 0 else {
      throw Failure(description: "cannot run \(arguments[0]): error \(spawned)")
    }
    return pid
  }

  /// Runs `body` with spawn attributes for a child: no signal blocked and default handlers
  /// (so a tmux server and its gallery stop on kill-server), and with `newSession` a session
  /// of its own (POSIX_SPAWN_SETSID, glibc 2.26, which the Glibc module does not export).
  static func withChildAttributes<T>(
    newSession: Bool = false, _ body: (inout posix_spawnattr_t) -> T
  ) -> T {
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var none = sigset_t()
    sigemptyset(&none)
    posix_spawnattr_setsigmask(&attributes, &none)
    var defaults = sigset_t()
    sigemptyset(&defaults)
    for signal in [SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGPIPE, SIGCHLD, SIGTSTP, SIGCONT, SIGWINCH] {
      sigaddset(&defaults, signal)
    }
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    let setSessionID: Int32 = 0x80
    posix_spawnattr_setflags(
      &attributes,
      Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | (newSession ? setSessionID : 0)))
    return body(&attributes)
  }
}
