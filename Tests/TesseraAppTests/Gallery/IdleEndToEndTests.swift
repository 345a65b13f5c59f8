import Foundation
import Testing

/// A gallery at rest (nothing moving, nothing loading) sleeps until input arrives: its main
/// thread does not wake 60 times a second to find nothing to draw, which a laptop pays for in
/// battery.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct IdleEndToEndTests {
  /// Times the process's threads went to sleep and woke again, from the kernel's own counts.
  /// (The main actor need not run on the main thread: Dispatch's main queue may be drained
  /// by another thread, so every thread is counted.)
  static func wakeUps(_ pid: pid_t) -> Int? {
    guard let threads = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")
    else { return nil }
    return threads.reduce(0) { total, thread in
      guard
        let status = try? String(
          contentsOfFile: "/proc/\(pid)/task/\(thread)/status", encoding: .utf8),
        let line = status.split(separator: "\n").first(where: {
          $0.hasPrefix("voluntary_ctxt_switches:")
        }),
        let count = Int(line.split(separator: ":")[1].trimmingCharacters(in: .whitespaces))
      else { return total }
      return total + count
    }
  }

  @Test func aRestingGalleryDoesNotWakeUntilInputArrives() throws {
    let tmux = try Tmux(
      command: [
        GalleryBinary.path, "gallery", "--graphics", "blocks", "--no-disk-cache", "--items", "60",
        "--latency", "fixed:0ms",
      ], columns: 120, rows: 40)
    _ = try tmux.waitFor("the first screen, settled") {
      let plain = Tmux.plain($0)
      // Nothing in flight and nothing prefetched ahead (no "(N ahead)"): the pipeline rests.
      return plain.contains("photos 1–") && plain.contains("⟳ 0 in flight ✗")
    }
    let pid = tmux.panePID
    let before = try #require(Self.wakeUps(pid))
    // Two seconds of rest: polling at 60 fps would wake the main thread about 120 times.
    Thread.sleep(forTimeInterval: 2)
    let after = try #require(Self.wakeUps(pid))
    print("idle: \(after - before) wake-ups in 2 s at rest")
    #expect(after - before <= 20, "the resting gallery woke \(after - before) times in 2 s")
    // And it still answers: a key wakes it and the screen moves.
    try tmux.send("j")
    _ = try tmux.waitFor("the screen after a key") { Tmux.plain($0).contains("photos ") }
    let afterKey = try #require(Self.wakeUps(pid))
    #expect(afterKey > after, "a key press did not wake the gallery")
  }
}
