import Foundation

/// A gallery running in its own tmux server, driven as a person would: keys in, the screen
/// (with colours) out. Each instance has a private socket, so tests never share a server.
final class Tmux {
  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  let socket = "tessera-test-\(UUID().uuidString.prefix(8))"
  let target = "gallery"
  let cacheHome = FileManager.default.temporaryDirectory.appendingPathComponent(
    "tessera-test-cache-\(UUID().uuidString.prefix(8))", isDirectory: true)

  /// Starts `command` in a detached session of `columns` × `rows`.
  init(command: [String], columns: Int, rows: Int, environment: [String: String] = [:]) throws {
    // Caches (downloads, shared thumbnails) go to a folder of this session's, never the
    // person's own ~/.cache; removed with the session.
    var environment = environment
    if environment["XDG_CACHE_HOME"] == nil { environment["XDG_CACHE_HOME"] = cacheHome.path }
    let exports = environment.map { "\($0.key)=\(Self.quote($0.value))" }.joined(separator: " ")
    // `exec`: the pane's process is the program itself, so its pid is the program's.
    let line =
      "exec " + (exports.isEmpty ? "" : "env \(exports) ")
      + command.map(Self.quote).joined(separator: " ")
    // The new server outlives this call and would hold a captured stdout open forever.
    try run(
      ["new-session", "-d", "-s", target, "-x", String(columns), "-y", String(rows), line],
      capturing: false)
    // Keep the pane when the program exits, so the test can read what it left behind.
    try run(["set-option", "-t", target, "remain-on-exit", "on"])
    serverPID = pid_t(try paneValue("pid")) ?? 0
    panePID = pid_t(try paneValue("pane_pid")) ?? 0
  }

  /// The tmux server's and the program's process ids, to make sure both are gone at the end.
  private var serverPID: pid_t = 0
  private(set) var panePID: pid_t = 0

  /// Stops the server and the program in it, pass or fail: kill-server first (the program gets
  /// SIGHUP and restores its terminal), then SIGKILL for whatever is still alive after 2 s.
  deinit {
    _ = try? run(["kill-server"])
    for pid in [panePID, serverPID] where pid > 0 {
      Self.stop(pid)
    }
    try? FileManager.default.removeItem(at: cacheHome)
  }

  private static func stop(_ pid: pid_t) {
    let deadline = ContinuousClock.now + .seconds(2)
    while kill(pid, 0) == 0 && ContinuousClock.now < deadline {
      Thread.sleep(forTimeInterval: 0.02)
    }
    if kill(pid, 0) == 0 { kill(pid, SIGKILL) }
  }

  func send(_ keys: String...) throws {
    try run(["send-keys", "-t", target] + keys)
  }

  /// The pane as `capture-pane -p -e` prints it: text with SGR colour sequences.
  func capture() throws -> String {
    try run(["capture-pane", "-p", "-e", "-t", target])
  }

  /// A capture the terminal was not in the middle of drawing: two captures in a row that agree.
  /// A frame arrives in several writes and tmux 3.3 has no synchronized output, so a single
  /// capture can catch the top of a new frame over the bottom of the old one.
  func stableCapture(attempts: Int = 40) throws -> String? {
    var previous = try capture()
    for _ in 0..<attempts {
      Thread.sleep(forTimeInterval: 0.02)
      let current = try capture()
      if current == previous { return current }
      previous = current
    }
    return nil
  }

  /// Closes the pane: the program's terminal goes away under it (EOF, SIGHUP).
  func killPane() throws {
    try run(["kill-pane", "-t", target])
  }

  func resize(columns: Int, rows: Int) throws {
    try run(["resize-window", "-t", target, "-x", String(columns), "-y", String(rows)])
  }

  /// A tmux format value of the pane, e.g. `alternate_on`, `pane_dead`.
  func paneValue(_ name: String) throws -> String {
    try run(["display-message", "-p", "-t", target, "#{\(name)}"])
      .trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// Polls the screen until `condition` holds on a stable capture (see `stableCapture`), up to
  /// `timeout`. Waiting for a state the program reaches by itself (images arriving over
  /// loopback), never a fixed delay.
  @discardableResult
  func waitFor(
    _ what: String, timeout: Duration = .seconds(150), _ condition: (String) throws -> Bool
  ) throws -> String {
    let deadline = ContinuousClock.now + timeout
    var last = ""
    while ContinuousClock.now < deadline {
      last = try capture()
      if try condition(last) {
        Thread.sleep(forTimeInterval: 0.02)
        let again = try capture()
        if again == last { return last }
        continue
      }
      Thread.sleep(forTimeInterval: 0.05)
    }
    throw Failure(description: "timed out waiting for \(what); screen was:\n\(Self.plain(last))")
  }

  @discardableResult
  private func run(_ arguments: [String], capturing: Bool = true) throws -> String {
    let result = try Spawn.run(
      // CI may have no TERM; tmux wants one even for a detached server.
      ["env", "TERM=xterm-256color", "tmux", "-L", socket] + arguments, capturing: capturing)
    guard result.status == 0 else {
      throw Failure(
        description: "tmux \(arguments.joined(separator: " ")) failed: \(result.output)")
    }
    return result.output
  }

  static func quote(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
  }

  /// The screen without colour sequences, for messages.
  static func plain(_ text: String) -> String {
    text.replacingOccurrences(of: "\u{1B}\\[[0-9;:]*m", with: "", options: .regularExpression)
  }
}
