import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// The gallery in a tmux server of its own (`tmux -L tessera-bench-…`), watched through
/// `capture-pane`; the server and the gallery are stopped when the session goes.
final class FolderBenchSession {
  /// What a capture of the gallery says: the status bar's range and counts, the placeholders
  /// still on screen, the captions' file names.
  struct Screen {
    var first = 0
    var last = 0
    var total = 0
    var loaded = 0
    var placeholders = 0
    var imageCells = 0
    var names: [String] = []
    /// The walk is over and every date read: the order on screen is final.
    var ordered = false

    /// Every visible tile drawn: no placeholder left, images on screen.
    var isFull: Bool {
      // (The status bar's loaded count is not used: a memory hit is not counted there.)
      total > 0 && placeholders == 0 && imageCells > 0
    }

    init(_ capture: String) {
      let lines = capture.split(separator: "\n", omittingEmptySubsequences: false)
      let status = lines.last { $0.contains(" of ") && $0.contains("loaded") } ?? ""
      ordered = !status.contains("walking") && !status.contains("reading dates")
      let numbers = Self.numbers(in: status)
      // "photos A–B of N │ ✓ L loaded …"
      if numbers.count >= 4 {
        (first, last, total, loaded) = (numbers[0], numbers[1], numbers[2], numbers[3])
      }
      for line in lines.dropFirst().dropLast(2) {
        placeholders += line.filter { $0 == "…" }.count
        imageCells += line.filter { $0 == "▀" || $0 == "▄" }.count
        for word in line.split(separator: " ") where word.hasSuffix(".jpg") {
          names.append(String(word))
        }
      }
    }

    private static func numbers(in text: Substring) -> [Int] {
      var found: [Int] = []
      var current = ""
      for character in text {
        if character.isASCII, character.isNumber {
          current.append(character)
        } else if !current.isEmpty {
          found.append(Int(current) ?? 0)
          current = ""
        }
      }
      if !current.isEmpty { found.append(Int(current) ?? 0) }
      return found
    }
  }

  private let socket = "tessera-bench-\(getpid())-\(UUID().uuidString.prefix(8))"
  private var panePID: pid_t = 0
  /// Everything the gallery writes, as tmux passes it on (`pipe-pane`): its growth says when
  /// there is a new frame to capture.
  private let outputLog = FileManager.default.temporaryDirectory.appendingPathComponent(
    "tessera-bench-output-\(UUID().uuidString)")

  /// A tmux server whose one pane waits; ``launch(_:environment:)`` starts the gallery in it,
  /// so a timing starts with the gallery, not with the terminal around it (a new tmux server
  /// takes ~20 ms here; timg is timed without any terminal).
  init(columns: Int, rows: Int) throws {
    try tmux(
      ["new-session", "-d", "-s", "bench", "-x", String(columns), "-y", String(rows), "cat"],
      capturing: false)
    _ = FileManager.default.createFile(atPath: outputLog.path, contents: nil)
    try tmux(
      ["pipe-pane", "-o", "-t", "bench", "cat >> " + Self.quote(outputLog.path)], capturing: false)
  }

  /// Replaces the waiting pane's program with `command`, executed directly (tmux runs a
  /// command given as several arguments without a shell, as timg is started here too).
  func launch(_ command: [String], environment: [String: String]) throws {
    let exports = environment.sorted { $0.key < $1.key }.flatMap {
      ["-e", "\($0.key)=\($0.value)"]
    }
    try tmux(["respawn-pane", "-k", "-t", "bench"] + exports + command, capturing: false)
    panePID =
      pid_t(
        try tmux(["display-message", "-p", "-t", "bench", "#{pane_pid}"])
          .trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
  }

  deinit {
    _ = try? tmux(["kill-server"])
    try? FileManager.default.removeItem(at: outputLog)
    if panePID > 0 {
      let deadline = ContinuousClock.now + .seconds(2)
      while kill(panePID, 0) == 0 && ContinuousClock.now < deadline { usleep(10_000) }
      if kill(panePID, 0) == 0 { kill(panePID, SIGKILL) }
    }
  }

  func send(_ key: String) throws { try tmux(["send-keys", "-t", "bench", key]) }

  /// Captures the pane each time the gallery has written something since the last capture
  /// (the output log is checked every 2 ms, in this process: a capture is a tmux client
  /// process, and capturing every few milliseconds took half a core from the gallery on two
  /// cores), and at least every 200 ms, until it shows a full screen that also satisfies
  /// `also`; fails after 120 s. A frame is seen one capture (~4 ms) after it is written.
  func waitForFullScreen(_ also: (Screen) -> Bool) throws -> Screen {
    if let screen = try waitForFullScreen(within: .seconds(120), also) { return screen }
    let last = (try? tmux(["capture-pane", "-p", "-t", "bench"])) ?? ""
    throw FolderBenchProcess.Failure(
      description: "the gallery showed no full screen in 120 s; the pane was:\n\(last)")
  }

  /// The same, giving up (nil) after `limit`.
  func waitForFullScreen(within limit: Duration, _ also: (Screen) -> Bool) throws -> Screen? {
    let deadline = ContinuousClock.now + limit
    var captured = -1
    var lastCapture = ContinuousClock.now
    while ContinuousClock.now < deadline {
      let written = outputBytes()
      if written != captured || ContinuousClock.now - lastCapture > .milliseconds(200) {
        captured = written
        lastCapture = ContinuousClock.now
        let screen = Screen(try tmux(["capture-pane", "-p", "-t", "bench"]))
        if screen.isFull && also(screen) { return screen }
      } else {
        usleep(2_000)
      }
    }
    return nil
  }

  /// Bytes the gallery has written so far.
  private func outputBytes() -> Int {
    var info = stat()
    return stat(outputLog.path, &info) == 0 ? Int(info.st_size) : 0
  }

  /// The gallery's peak resident memory (VmHWM), in MB.
  func peakRSSMegabytes() -> Double {
    guard let status = try? String(contentsOfFile: "/proc/\(panePID)/status", encoding: .utf8),
      let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
    else { return .nan }
    let kilobytes = line.split(separator: " ").compactMap { Double($0) }.first ?? .nan
    return kilobytes / 1_000
  }

  @discardableResult
  private func tmux(_ arguments: [String], capturing: Bool = true) throws -> String {
    try FolderBenchProcess.run(
      ["tmux", "-L", socket] + arguments, environment: ["TERM": "xterm-256color"],
      capturing: capturing)
  }

  private static func quote(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
  }
}
