import Foundation
import TesseraPhotoFormats
import TesseraPhotoLibrary
import TesseraUtilities

#if canImport(Glibc)
  import Glibc
#endif

/// The gallery in a tmux server of its own (`tmux -L tessera-bench-…`), watched through
/// `capture-pane`; the server and the gallery are stopped when the session goes.
final class FolderBenchSession {
  /// What a capture of the gallery says: the status bar's range and counts, the placeholders
  /// still on screen, the captions, the tiles that failed.
  struct Screen {
    var first = 0
    var last = 0
    var total = 0
    var loaded = 0
    var placeholders = 0
    var imageCells = 0
    /// The tiles' captions in reading order (the screen's order: newest first).
    var captions: [Caption] = []
    /// The status bar's "✗ N failed".
    var failed = 0
    /// The lines of tiles that show an error ("✗ reason") instead of a picture.
    var failures: [String] = []
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
      if let failedAt = status.range(of: " failed") {
        failed = Self.numbers(in: status[..<failedAt.lowerBound]).last ?? 0
      }
      for line in lines.dropFirst().dropLast(2) {
        placeholders += line.filter { $0 == "…" }.count
        imageCells += line.filter { $0 == "▀" || $0 == "▄" }.count
        if line.contains("✗") { failures.append(line.trimmingCharacters(in: .whitespaces)) }
        captions += Caption.all(in: line)
      }
    }

    /// A tile's caption: a file name and the badge the gallery puts before it.
    struct Caption: Equatable, CustomStringConvertible {
      var badge: String?
      var name: String

      /// What the gallery draws before a name: a RAW+JPEG pair's and a video's marks.
      static let badges: Set<Substring> = ["RAW+", "▶"]
      /// The extensions a shown file may have.
      static let extensions = FolderWalker.imageExtensions.union(VideoFile.extensions)

      var description: String { (badge.map { $0 + " " } ?? "") + name }

      /// The captions on one line of the screen, left to right: each word whose extension is
      /// a photo's or a video's, with the badge before it (a video's "▶ 0:42 name": its
      /// duration stands between them once known).
      static func all(in line: Substring) -> [Caption] {
        let words = line.split(separator: " ")
        return words.indices.compactMap { index in
          let word = words[index]
          guard let dot = word.lastIndex(of: "."),
            extensions.contains(word[word.index(after: dot)...].lowercased())
          else { return nil }
          var before = index - 1
          if before > words.startIndex, isDuration(words[before]) { before -= 1 }
          let badge = before >= words.startIndex ? words[before] : nil
          return Caption(
            badge: badge.flatMap { badges.contains($0) ? String($0) : nil }, name: String(word))
        }
      }

      /// "0:42", "1:02:03": digits and colons, a colon among them.
      private static func isDuration(_ word: Substring) -> Bool {
        word.contains(":") && word.allSatisfy { $0 == ":" || $0.isASCII && $0.isNumber }
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
  private let columns: Int
  private let rows: Int
  private var replayReady = false
  /// Everything the gallery writes, as tmux passes it on (`pipe-pane`): its growth says when
  /// there is a new frame to capture.
  private let outputLog = FileManager.default.temporaryDirectory.appendingPathComponent(
    "tessera-bench-output-\(UUID().uuidString)")

  /// A tmux server whose one pane waits; ``launch(_:environment:)`` starts the gallery in it,
  /// so a timing starts with the gallery, not with the terminal around it (a new tmux server
  /// takes ~20 ms here; timg is timed without any terminal).
  init(columns: Int, rows: Int) throws {
    self.columns = columns
    self.rows = rows
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

  /// A full screen, and how far the gallery's output had come when it showed.
  struct Seen {
    var screen: Screen
    /// The output's size when the last capture that was not full began: the frame that
    /// completed the screen ends after it.
    var notFullBefore: Int
    /// The output's size when the capture that showed it returned: the frame that completed
    /// the screen ends at or before it.
    var bytes: Int
    /// When that capture returned.
    var seenAt: ContinuousClock.Instant
  }

  /// Captures the pane when the gallery has written something since the last capture and
  /// then paused (the output log is checked every 2 ms, in this process), and at least every
  /// 200 ms, until it shows a full screen that also satisfies `also`; fails after 120 s.
  func waitForFullScreen(_ also: (Screen) -> Bool) throws -> Seen {
    if let seen = try waitForFullScreen(within: .seconds(120), also) { return seen }
    let last = (try? tmux(["capture-pane", "-p", "-t", "bench"])) ?? ""
    throw FolderBenchProcess.Failure(
      description: "the gallery showed no full screen in 120 s; the pane was:\n\(last)")
  }

  /// The same, giving up (nil) after `limit`.
  func waitForFullScreen(within limit: Duration, _ also: (Screen) -> Bool) throws -> Seen? {
    let deadline = ContinuousClock.now + limit
    var captured = -1
    var notFull = outputBytes()
    var lastCapture = ContinuousClock.now
    var size = notFull
    var grewAt = ContinuousClock.now
    while ContinuousClock.now < deadline {
      let written = outputBytes()
      let now = ContinuousClock.now
      if written != size {
        size = written
        grewAt = now
      }
      // A capture is a tmux client process, and tmux then renders the pane for it: taken
      // only once the output has paused (or every 100 ms while it flows), they leave the
      // gallery its two cores. The frame that completed the screen is dated afterwards.
      let paused = now - grewAt >= .milliseconds(12)
      if (written != captured && (paused || now - lastCapture >= .milliseconds(100)))
        || now - lastCapture > .milliseconds(200)
      {
        captured = written
        lastCapture = ContinuousClock.now
        let screen = Screen(try tmux(["capture-pane", "-p", "-t", "bench"]))
        if screen.isFull && also(screen) {
          return Seen(
            screen: screen, notFullBefore: notFull, bytes: outputBytes(),
            seenAt: ContinuousClock.now)
        }
        notFull = written
      } else {
        usleep(2_000)
      }
    }
    return nil
  }

  /// The first of `boundaries` (sizes of the gallery's output, ascending) at which its screen
  /// satisfies `full`: a boundary is replayed, from the output log, into a second pane of the
  /// same size, and captured once tmux has taken it all in. Nil when none does.
  func firstBoundary(of boundaries: [Int], showing full: (Screen) -> Bool) throws -> Int? {
    if !replayReady {
      try tmux(
        ["new-session", "-d", "-s", "replay", "-x", String(columns), "-y", String(rows), "cat"],
        capturing: false)
      replayReady = true
    }
    // A screen once full stays so until the next key: the first full boundary is found by
    // bisection, O(log boundaries) replays.
    var low = 0
    var high = boundaries.count
    while low < high {
      let middle = (low + high) / 2
      if full(try replay(boundaries[middle])) { high = middle } else { low = middle + 1 }
    }
    return boundaries.indices.contains(low) ? boundaries[low] : nil
  }

  /// The screen after the output's first `bytes`: a shell prints them with `head` and then
  /// sleeps; the capture is taken when two in a row, 5 ms apart, agree.
  private func replay(_ bytes: Int) throws -> Screen {
    try tmux(
      [
        "respawn-pane", "-k", "-t", "replay", "sh", "-c",
        "head -c \(bytes) \(Self.quote(outputLog.path)); exec sleep 600",
      ], capturing: false)
    let deadline = ContinuousClock.now + .seconds(10)
    var previous: String?
    while ContinuousClock.now < deadline {
      usleep(5_000)
      let command = try tmux(["display-message", "-p", "-t", "replay", "#{pane_current_command}"])
      guard command.trimmingCharacters(in: .whitespacesAndNewlines) == "sleep" else { continue }
      let capture = try tmux(["capture-pane", "-p", "-t", "replay"])
      if capture == previous { return Screen(capture) }
      previous = capture
    }
    throw FolderBenchProcess.Failure(description: "a replay of \(bytes) bytes did not settle")
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
