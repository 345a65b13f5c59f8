import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A program the real-terminal tests start and must stop (Xvfb, xterm, kitty): spawned with
/// posix_spawn in its own process group, stopped in `deinit`, pass or fail — SIGTERM to the
/// group, then SIGKILL for whatever is still alive after two seconds, and reaped.
final class BackgroundProcess {
  let pid: pid_t
  let name: String

  /// Starts `arguments` with `environment` added to ours; output goes to `log` (or /dev/null).
  /// With `reportingFD`, the child's descriptor 3 is the write end of a pipe whose read end is
  /// returned through `report` (Xvfb's `-displayfd 3` writes its display number there).
  init(
    _ arguments: [String], environment: [String: String] = [:], log: String? = nil,
    report: UnsafeMutablePointer<Int32>? = nil
  ) throws {
    name = arguments.first ?? "?"
    var pipe: [Int32] = [-1, -1]
    if report != nil {
      guard Glibc.pipe(&pipe) == 0 else { throw Spawn.Failure(description: "pipe: \(errno)") }
    }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    let output = log ?? "/dev/null"
    posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_APPEND, 0o644)
    posix_spawn_file_actions_adddup2(&actions, 1, 2)
    if report != nil {
      posix_spawn_file_actions_adddup2(&actions, pipe[1], 3)
      posix_spawn_file_actions_addclose(&actions, pipe[0])
      posix_spawn_file_actions_addclose(&actions, pipe[1])
    }
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    Spawn.resetSignals(&attributes)
    // Its own process group, so stopping it reaches the children it starts (the gallery).
    posix_spawnattr_setpgroup(&attributes, 0)
    posix_spawnattr_setflags(
      &attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))
    var merged = ProcessInfo.processInfo.environment
    for (key, value) in environment { merged[key] = value }
    var envp: [UnsafeMutablePointer<CChar>?] =
      merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { for pointer in envp { free(pointer) } }
    var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var child: pid_t = 0
    let spawned = posix_spawnp(&child, arguments[0], &actions, &attributes, &argv, &envp)
    if report != nil { close(pipe[1]) }
    guard spawned == 0 else {
      if report != nil { close(pipe[0]) }
      throw Spawn.Failure(description: "cannot run \(arguments[0]): error \(spawned)")
    }
    pid = child
    report?.pointee = pipe[0]
  }

  deinit { stop() }

  /// True while the process has not exited (reaps it when it has). Should something else in
  /// the test process reap it first (waitpid then fails with ECHILD), its pid answers instead.
  var isRunning: Bool {
    var status: Int32 = 0
    let result = waitpid(pid, &status, WNOHANG)
    if result == 0 { return true }
    if result < 0 && errno == ECHILD { return kill(pid, 0) == 0 }
    return false
  }

  /// SIGTERM to the process group, then SIGKILL after two seconds; waits until it is reaped.
  func stop() {
    guard isRunning else { return }
    kill(-pid, SIGTERM)
    kill(pid, SIGTERM)
    let deadline = ContinuousClock.now + .seconds(2)
    while isRunning && ContinuousClock.now < deadline {
      Thread.sleep(forTimeInterval: 0.02)
    }
    if isRunning {
      kill(-pid, SIGKILL)
      kill(pid, SIGKILL)
      var status: Int32 = 0
      while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    }
  }

  /// Stops a process that is not our child (the gallery, started by the terminal): SIGTERM,
  /// then SIGKILL after two seconds.
  static func stop(foreign pid: pid_t) {
    guard pid > 0, kill(pid, 0) == 0 else { return }
    kill(pid, SIGTERM)
    let deadline = ContinuousClock.now + .seconds(2)
    while kill(pid, 0) == 0 && ContinuousClock.now < deadline {
      Thread.sleep(forTimeInterval: 0.02)
    }
    if kill(pid, 0) == 0 { kill(pid, SIGKILL) }
  }
}
