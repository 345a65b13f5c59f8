import Foundation
import TesseraTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Motion in a real kitty: an animated GIF plays by kitty's own animation (the gallery writes
/// nothing once it is sent), and a video plays from ffmpeg's frames and leaves no decoder after
/// Esc. Seen by screenshots: the picture changes while the text stays.
enum MotionInKittyScenario {
  /// A folder holding one file made by ffmpeg, and the gallery in kitty showing it in its
  /// detail view; with the bytes the gallery had written when Return went.
  private static func launch(
    _ name: String, make: (String) throws -> Void
  ) throws -> (
    RealTerminal, URL, Int
  ) {
    let root = TemporaryFolder.make(prefix: "tessera-rt-motion")
    try make(root.appendingPathComponent(name).path)
    let terminal = try RealTerminal(
      .kitty, arguments: [root.path, "--graphics", "kitty", "--no-disk-cache"],
      columns: RealTerminalScenarios.columns, rows: RealTerminalScenarios.rows)
    try terminal.waitFor("\(name)'s tile") { $0.text.contains(name) }
    let written = try #require(
      bytesWritten(by: terminal.galleryPID), "/proc/\(terminal.galleryPID)/io cannot be read")
    try terminal.key("Return")
    return (terminal, root, written)
  }

  /// Screenshots until `count` different pictures were seen (or `timeout`), comparing rows 2
  /// to 20 of the screen only: the detail view's picture, not its text (a video's position
  /// line counts too). `also` runs after each.
  private static func differentScreens(
    _ terminal: RealTerminal, count: Int, timeout: Duration = .seconds(20),
    also: () -> Void = {}
  ) throws -> Int {
    var seen: [ArraySlice<UInt8>] = []
    let deadline = ContinuousClock.now + timeout
    while seen.count < count, ContinuousClock.now < deadline {
      let shot = try terminal.screenshot()
      let rowBytes = shot.width * 3 * terminal.cellHeight
      let picture = shot.rgb[(2 * rowBytes)..<min(shot.rgb.count, 20 * rowBytes)]
      if !seen.contains(picture) { seen.append(picture) }
      also()
    }
    return seen.count
  }

  /// Bytes the process `pid` has written so far (`wchar` in /proc/PID/io); nil if unreadable.
  static func bytesWritten(by pid: pid_t) -> Int? {
    guard let io = try? String(contentsOfFile: "/proc/\(pid)/io", encoding: .utf8) else {
      return nil
    }
    let line = io.split(separator: "\n").first { $0.hasPrefix("wchar:") }
    return line.flatMap { Int($0.dropFirst("wchar:".count).trimmingCharacters(in: .whitespaces)) }
  }

  /// Waits until `pid` has written more than `minimum` bytes past `start` and then nothing
  /// for `quiet`: its upload and the start's repeats are out. Returns the bytes written then.
  private static func quietOutput(
    of pid: pid_t, after start: Int, minimum: Int, for quiet: Duration
  ) throws -> Int {
    let deadline = ContinuousClock.now + .seconds(60)
    var last = bytesWritten(by: pid)
    var since = ContinuousClock.now
    while ContinuousClock.now < deadline {
      Thread.sleep(forTimeInterval: 0.1)
      let now = bytesWritten(by: pid)
      if now != last {
        (last, since) = (now, .now)
      } else if ContinuousClock.now - since >= quiet, let last, last - start > minimum {
        return last
      }
    }
    throw Spawn.Failure(description: "the gallery never stopped writing (\(last ?? -1) bytes)")
  }

  static func animationPlaysByItself() throws {
    let (terminal, root, opened) = try launch("spinning.gif") {
      // 30 frames of a moving test card at 10 a second, forever.
      try TestMedia.animation($0, frames: 30, rate: 10, size: "320x240")
    }
    defer { try? FileManager.default.removeItem(at: root) }
    let pid = terminal.galleryPID
    // The upload: 30 frames of a test card, far more than 30 kB.
    let before = try quietOutput(
      of: pid, after: opened, minimum: 30_000, for: .milliseconds(1500))
    let text = try terminal.text()
    #expect(text.contains("Esc back"), "the detail view is not open:\n\(text)")
    let pictures = try differentScreens(terminal, count: 4)
    let after = bytesWritten(by: pid) ?? 0
    #expect(pictures >= 4, "the picture changed only \(pictures - 1) times")
    // A frame of the GIF at the detail view's size is tens of kilobytes; nothing at all was
    // sent while kitty played it.
    #expect(after - before == 0, "the gallery wrote \(after - before) bytes while it played")
  }

  static func videoPlaysAndEscStopsItsDecoder() throws {
    let (terminal, root, _) = try launch("clip.mp4") { try TestMedia.video($0, seconds: 4) }
    defer { try? FileManager.default.removeItem(at: root) }
    var decoding = false
    let pictures = try differentScreens(terminal, count: 4) {
      if !ProcessTree.decoders(below: terminal.galleryPID).isEmpty {
        decoding = true
      }
    }
    #expect(pictures >= 4, "the picture changed only \(pictures - 1) times")
    #expect(decoding, "no ffmpeg was seen below the gallery")
    try terminal.key("Escape")
    let deadline = ContinuousClock.now + .seconds(10)
    var left = ProcessTree.decoders(below: terminal.galleryPID)
    while !left.isEmpty, ContinuousClock.now < deadline {
      Thread.sleep(forTimeInterval: 0.05)
      left = ProcessTree.decoders(below: terminal.galleryPID)
    }
    #expect(left.isEmpty, "ffmpeg \(left) still runs after Esc")
    let text = try terminal.text()
    #expect(!text.contains("Space pause/play"), "Esc did not leave the video:\n\(text)")
  }
}
