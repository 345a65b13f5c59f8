import ArgumentParser
import Foundation
import TesseraBenchSupport

#if canImport(Glibc)
  import Glibc
#endif

/// `tessera bench idle`: what the gallery costs when nothing happens. The gallery runs on its
/// embedded server in a private tmux server; once it is at rest (first screen drawn, nothing in
/// flight), its CPU time (utime + stime from /proc/<pid>/stat), wake-ups (voluntary context
/// switches of all its threads) and terminal writes (/proc/<pid>/io) are read over a window of
/// `--seconds`. Baselines from the same run: a `sleep` measured over the same window (zero, the
/// measurement's floor) and the same gallery while it scrolls (what a frame loop costs).
struct IdleBench: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "idle",
    abstract: "The gallery's CPU, wake-ups and writes at rest vs scrolling, from /proc.")

  @Flag(help: "Print one JSON object instead of tables.") var json = false
  @Option(help: "Seconds each window is measured (1…600).") var seconds = 10
  @Option(help: "Photos on the embedded server (1…100000).") var items = 2_000

  func run() async throws {
    guard (1...600).contains(seconds) else { throw ValidationError("--seconds must be 1…600") }
    guard (1...100_000).contains(items) else {
      throw ValidationError("--items must be 1…100000")
    }
    let report = try IdleBenchmark(seconds: seconds, items: items).run()
    report.print(json: json)
  }
}

/// What /proc says of one process at one moment. Values the kernel prints are parsed, never
/// trusted: a field that does not read as a number makes the whole sample nil.
struct ProcessSample {
  /// utime + stime of all threads, in clock ticks.
  let cpuTicks: Int
  /// Voluntary context switches of each thread (by thread id): times it slept and was woken.
  let wakeUpsByThread: [Int: Int]
  /// write(2)-family calls and the bytes they carried (the terminal output, at rest).
  let writeCalls: Int
  let bytesWritten: Int

  static func read(_ pid: pid_t) -> ProcessSample? {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
      let close = stat.lastIndex(of: ")")
    else { return nil }
    // Fields after the command's closing parenthesis start at field 3 (state); utime and
    // stime are fields 14 and 15.
    let fields = stat[stat.index(after: close)...].split(separator: " ")
    guard fields.count > 12, let user = Int(fields[11]), let system = Int(fields[12]) else {
      return nil
    }
    let io = (try? String(contentsOfFile: "/proc/\(pid)/io", encoding: .utf8)) ?? ""
    return ProcessSample(
      cpuTicks: user + system, wakeUpsByThread: wakeUps(pid),
      writeCalls: value(of: "syscw", in: io) ?? 0, bytesWritten: value(of: "wchar", in: io) ?? 0)
  }

  private static func value(of key: String, in text: String) -> Int? {
    text.split(separator: "\n").first { $0.hasPrefix(key + ":") }
      .flatMap { Int($0.dropFirst(key.count + 1).trimmingCharacters(in: .whitespaces)) }
  }

  private static func wakeUps(_ pid: pid_t) -> [Int: Int] {
    let threads =
      (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
    var counts: [Int: Int] = [:]
    for thread in threads {
      let status =
        (try? String(contentsOfFile: "/proc/\(pid)/task/\(thread)/status", encoding: .utf8)) ?? ""
      if let id = Int(thread), let count = value(of: "voluntary_ctxt_switches", in: status) {
        counts[id] = count
      }
    }
    return counts
  }
}

/// The difference of two samples over `seconds`, as rates.
struct ProcessUsage {
  let cpuPercentOfACore: Double
  let wakeUpsPerSecond: Double
  let writeCalls: Int
  let bytesWritten: Int

  init(from start: ProcessSample, to end: ProcessSample, seconds: Double) {
    let ticksPerSecond = Double(max(1, sysconf(Int32(_SC_CLK_TCK))))
    cpuPercentOfACore = Double(end.cpuTicks - start.cpuTicks) / ticksPerSecond / seconds * 100
    // Threads come and go (the cooperative pool, Dispatch): a thread alive at both ends counts
    // its difference, one born in the window all of its count; one that lived and died inside
    // the window is missed.
    let wakeUps = end.wakeUpsByThread.reduce(0) { total, thread in
      total + thread.value - (start.wakeUpsByThread[thread.key] ?? 0)
    }
    wakeUpsPerSecond = Double(max(0, wakeUps)) / seconds
    writeCalls = end.writeCalls - start.writeCalls
    bytesWritten = end.bytesWritten - start.bytesWritten
  }
}

struct IdleBenchmark {
  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  let seconds: Int
  let items: Int

  func run() throws -> BenchReport {
    let binary =
      (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
      ?? CommandLine.arguments[0]
    let tmux = try BenchTmux(
      command: [
        binary, "gallery", "--graphics", "blocks", "--no-disk-cache", "--items", String(items),
        "--latency", "fixed:0ms",
      ], columns: 120, rows: 40)
    try tmux.waitUntilAtRest()
    let gallery = tmux.panePID
    let window = Double(seconds)

    // At rest, beside a `sleep` started now: the floor of the measurement.
    let sleeper = try BenchSpawn.start(["sleep", String(seconds + 5)])
    defer {
      kill(sleeper, SIGTERM)
      BenchSpawn.wait(sleeper)
    }
    let restStart = try sample(gallery)
    let sleepStart = try sample(sleeper)
    Thread.sleep(forTimeInterval: window)
    let rest = ProcessUsage(from: restStart, to: try sample(gallery), seconds: window)
    let sleep = ProcessUsage(from: sleepStart, to: try sample(sleeper), seconds: window)

    // Scrolling: a key every 50 ms, down for half the window and back up.
    let scrollStart = try sample(gallery)
    let began = ContinuousClock.now
    var presses = 0
    while ContinuousClock.now - began < .seconds(seconds) {
      let elapsed = ContinuousClock.now - began
      try tmux.send(elapsed < .seconds(seconds) / 2 ? "j" : "k")
      presses += 1
      Thread.sleep(forTimeInterval: 0.05)
    }
    let scrollSeconds = Double((ContinuousClock.now - began).components.seconds)
    let scroll = ProcessUsage(
      from: scrollStart, to: try sample(gallery), seconds: max(1, scrollSeconds))

    var report = BenchReport(benchmark: "idle")
    report.add("rest_cpu_percent_of_core", rest.cpuPercentOfACore, "%")
    report.add("rest_wakeups_per_s", rest.wakeUpsPerSecond, "/s")
    report.add("rest_write_calls", Double(rest.writeCalls), "calls")
    report.add("rest_bytes_written", Double(rest.bytesWritten), "bytes")
    report.add("sleep_cpu_percent_of_core", sleep.cpuPercentOfACore, "%")
    report.add("sleep_wakeups_per_s", sleep.wakeUpsPerSecond, "/s")
    report.add("scroll_cpu_percent_of_core", scroll.cpuPercentOfACore, "%")
    report.add("scroll_wakeups_per_s", scroll.wakeUpsPerSecond, "/s")
    report.add("scroll_write_calls", Double(scroll.writeCalls), "calls")
    report.add("scroll_bytes_written", Double(scroll.bytesWritten), "bytes")
    report.ratio(
      "rest_cpu_vs_scroll", ours: rest.cpuPercentOfACore, baseline: scroll.cpuPercentOfACore)
    report.add(
      "rest_under_half_percent", rest.cpuPercentOfACore < 0.5 ? 1 : 0, "bool")
    report.note(
      "gallery: 120×40 tmux pane, blocks, --items \(items), embedded server at 0 ms latency, "
        + "no disk cache; measured \(seconds) s after the first screen settled (nothing in flight)")
    report.note(
      "CPU = utime + stime of all threads from /proc/<pid>/stat (resolution 1 tick, "
        + "\(100.0 / Double(max(1, sysconf(Int32(_SC_CLK_TCK)))) / window) % over the window); "
        + "wake-ups = voluntary context switches of all threads; writes from /proc/<pid>/io "
        + "(every write(2): a drawn frame is at least one to the terminal; eventfd wake-ups "
        + "of the runtimes are 8 bytes each)")
    report.note(
      "baselines: `sleep` over the same window (the floor), and the same gallery scrolling "
        + "(\(presses) key presses, one every 50 ms, down then up)")
    return report
  }

  private func sample(_ pid: pid_t) throws -> ProcessSample {
    guard let sample = ProcessSample.read(pid) else {
      throw Failure(description: "cannot read /proc/\(pid) (did the process exit?)")
    }
    return sample
  }
}

/// The gallery in a detached tmux session on a private socket, stopped in `deinit`.
final class BenchTmux {
  private let socket = "tessera-bench-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
  private(set) var panePID: pid_t = 0

  init(command: [String], columns: Int, rows: Int) throws {
    let line = "exec " + command.map(Self.quote).joined(separator: " ")
    // The new server outlives this call: its output must not be a pipe we wait on.
    try run(
      ["new-session", "-d", "-s", "bench", "-x", String(columns), "-y", String(rows), line],
      capturing: false)
    let pid = try run(["display-message", "-p", "-t", "bench", "#{pane_pid}"])
    panePID = pid_t(pid.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    guard panePID > 0 else { throw IdleBenchmark.Failure(description: "no gallery pane") }
  }

  /// kill-server hangs the gallery's terminal up; whatever is still alive 2 s later is killed
  /// (a gallery that outlived its tmux server was seen here).
  deinit {
    _ = try? run(["kill-server"])
    let deadline = ContinuousClock.now + .seconds(2)
    while panePID > 0, kill(panePID, 0) == 0, ContinuousClock.now < deadline {
      Thread.sleep(forTimeInterval: 0.02)
    }
    if panePID > 0, kill(panePID, 0) == 0 { kill(panePID, SIGKILL) }
  }

  func capture() throws -> String { try run(["capture-pane", "-p", "-t", "bench"]) }

  func send(_ key: String) throws { try run(["send-keys", "-t", "bench", key]) }

  /// First screen drawn, nothing loading or in flight, and the screen unchanged for a second.
  func waitUntilAtRest(timeout: Duration = .seconds(120)) throws {
    let deadline = ContinuousClock.now + timeout
    var previous = ""
    while ContinuousClock.now < deadline {
      let screen = try capture()
      let settled =
        screen.contains("⟳ 0 in flight ✗") && screen.contains("photos 1–")
        && !screen.contains("loading")
      if settled, screen == previous { return }
      previous = settled ? screen : ""
      Thread.sleep(forTimeInterval: settled ? 1 : 0.1)
    }
    throw IdleBenchmark.Failure(description: "the gallery did not come to rest in \(timeout)")
  }

  @discardableResult
  private func run(_ arguments: [String], capturing: Bool = true) throws -> String {
    let result = try BenchSpawn.run(
      ["/usr/bin/env", "TERM=xterm-256color", "tmux", "-L", socket] + arguments,
      capturing: capturing)
    guard result.status == 0 else {
      throw IdleBenchmark.Failure(
        description: "tmux \(arguments.first ?? "") failed: \(result.output)")
    }
    return result.output
  }

  private static func quote(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
  }
}
