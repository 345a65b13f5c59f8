import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Input from servers and terminals we do not control, as a person meets it: each hostile
/// thing must end in a clear sentence where the person looks (the tile, the status bar), the
/// rest of the gallery must keep working, and the process must live.
@Suite(.serialized, .timeLimit(.minutes(5)))
struct HostileInputEndToEndTests {
  static let columns = 120
  static let rows = 40

  /// The gallery in a pane that dies with it; its exit status goes to `exitStatus` when given
  /// (tmux 3.3's `pane_dead_status` stays empty, whatever the status).
  static func launch(_ arguments: [String], exitStatus: URL? = nil) throws -> Tmux {
    let gallery = [GalleryBinary.path, "gallery", "--graphics", "blocks", "--no-disk-cache"]
    guard let exitStatus else {
      return try Tmux(command: gallery + arguments, columns: columns, rows: rows)
    }
    let script = "\"$@\"; echo $? > \(Tmux.quote(exitStatus.path))"
    return try Tmux(
      command: ["sh", "-c", script, "sh"] + gallery + arguments, columns: columns, rows: rows)
  }

  static func alive(_ tmux: Tmux) throws -> Bool {
    try tmux.paneValue("pane_dead") == "0"
  }

  @Test func aHostileFeedEndsInClearErrorsAndTheGalleryLives() throws {
    let site = try HostileSite()
    let exitStatus = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tessera-hostile-exit-\(UUID().uuidString.prefix(8))")
    defer { try? FileManager.default.removeItem(at: exitStatus) }
    let tmux = try Self.launch(
      ["--feed", site.feedURL, "--columns", "4"], exitStatus: exitStatus)
    let titles = HostileSite.titles
    // Every image request has ended: nothing in flight, nothing loading.
    let screen = try tmux.waitFor("every tile to settle") {
      let plain = Tmux.plain($0)
      return plain.contains("⟳ 0 in flight") && plain.contains("of 7")
        && !plain.contains("loading")
    }
    let plain = Tmux.plain(screen)
    // A file: URL in a network feed is refused before anything opens it, and said.
    // Seven of the eight entries are items; the eighth is said in the status bar.
    #expect(plain.contains("1 skipped"), "no skipped entry reported:\n\(plain)")
    // Vector and document formats never reach a decoder: the tile names the format.
    #expect(plain.contains("SVG"), "the SVG tile does not say SVG:\n\(plain)")
    #expect(plain.contains("PDF"), "the PDF tile does not say PDF:\n\(plain)")
    #expect(!screen.contains("\u{202E}"))
    #expect(try Self.alive(tmux))

    // The list: a 1×65,535 needle and an absurd claimed size still give rows of sane height,
    // so several items share one screen.
    try tmux.send("L")
    let list = try tmux.waitFor("the list with several rows") {
      let text = Tmux.plain($0)
      return text.contains("list") && text.contains(titles.plain) && text.contains(titles.absurd)
    }
    #expect(try Self.alive(tmux), "\(Tmux.plain(list))")
    #expect(!Tmux.plain(list).contains(titles.local), "the file: item was shown")
    try tmux.send("G")
    let end = try tmux.waitFor("the end of the list") {
      Tmux.plain($0).contains(String(titles.wide.prefix(3)))
    }
    let endText = Tmux.plain(end)
    #expect(endText.contains(titles.needle), "needle row not near the end:\n\(endText)")
    // Bidi overrides from a title never reach the terminal; the rest of the title does.
    #expect(!end.contains("\u{202E}"))
    #expect(endText.contains("gpj.exe"), "the bidi title vanished entirely:\n\(endText)")

    try tmux.send("L")
    _ = try tmux.waitFor("the waterfall") { Tmux.plain($0).contains("waterfall") }
    #expect(try Self.alive(tmux))
    try tmux.send("q")
    _ = try tmux.waitFor("the gallery to quit", timeout: .seconds(20)) { _ in
      (try? tmux.paneValue("pane_dead")) == "1"
    }
    let status = (try? String(contentsOf: exitStatus, encoding: .utf8)) ?? "none"
    #expect(status.trimmingCharacters(in: .whitespacesAndNewlines) == "0", "exit status \(status)")
  }

  @Test func aFeedLargerThanTheCapIsRefusedWithAReason() throws {
    let site = try HostileSite()
    let tmux = try Self.launch(["--feed", site.hugeFeedURL])
    let screen = try tmux.waitFor("the feed's failure") {
      Tmux.plain($0).contains("Press r to retry")
    }
    #expect(Tmux.plain(screen).contains("8 MiB"), "\(Tmux.plain(screen))")
    try tmux.send("r")
    _ = try tmux.waitFor("the failure again after a retry") {
      Tmux.plain($0).contains("Press r to retry")
    }
    #expect(try Self.alive(tmux))
  }

  @Test func forgedTerminalReportsAreClamped() throws {
    let tmux = try Self.launch(["--items", "60", "--latency", "fixed:0ms"])
    _ = try tmux.waitFor("the first screen") { Tmux.plain($0).contains("photos 1–") }
    // Replies a terminal would send to size queries, claiming absurd sizes: text area in
    // pixels, in cells, cell size. Typed as input, the gallery's parser must clamp them.
    for forged in [
      "\u{1B}[4;999999999;999999999t", "\u{1B}[8;99999999;99999999t",
      "\u{1B}[6;99999;99999t", "\u{1B}[48;99999;99999;99999;99999t",
      "\u{1B}[" + String(repeating: "9", count: 40) + ";1t",
    ] {
      try tmux.send("-l", forged)
    }
    try tmux.send("j")
    let after = try tmux.waitFor("a frame after the forged reports") {
      Tmux.plain($0).contains("photos ")
    }
    #expect(try Self.alive(tmux), "\(Tmux.plain(after))")
  }

  /// Ctrl-Z in a shell with job control, then `fg`: the terminal is given back while the
  /// gallery is stopped, and the whole screen comes back when it continues.
  @Test func ctrlZThenFgRestoreThenRedrawTheScreen() throws {
    let tmux = try Tmux(
      command: ["bash", "--norc", "--noprofile", "-i"], columns: Self.columns, rows: Self.rows,
      environment: ["PS1": "$ "])
    let line = [
      GalleryBinary.path, "gallery", "--graphics", "blocks", "--no-disk-cache", "--items", "60",
      "--latency", "fixed:0ms",
    ].map(Tmux.quote).joined(separator: " ")
    try tmux.send("-l", line)
    try tmux.send("Enter")
    _ = try tmux.waitFor("the first screen") { Tmux.plain($0).contains("photos 1–") }
    #expect(try tmux.paneValue("alternate_on") == "1")
    try tmux.send("C-z")
    let stopped = try tmux.waitFor("the shell's prompt after Ctrl-Z", timeout: .seconds(20)) {
      (try? tmux.paneValue("alternate_on")) == "0" && Tmux.plain($0).contains("Stopped")
    }
    #expect(Tmux.plain(stopped).contains("Stopped"))
    try tmux.send("-l", "fg")
    try tmux.send("Enter")
    let back = try tmux.waitFor("the gallery redrawn after fg", timeout: .seconds(20)) {
      (try? tmux.paneValue("alternate_on")) == "1" && Tmux.plain($0).contains("photos 1–")
    }
    #expect(Tmux.plain(back).contains("Tessera"))
    try tmux.send("q")
    _ = try tmux.waitFor("the shell again after q", timeout: .seconds(20)) {
      (try? tmux.paneValue("alternate_on")) == "0" && Tmux.plain($0).contains("$ ")
    }
  }

  /// The terminal goes away under the gallery while SIGHUP is blocked (as a parent that blocks
  /// it, a test runner for one, leaves it): reads then end in EOF or an error, and the gallery
  /// must end instead of spinning at 60 frames a second forever.
  @Test func aLostTerminalEndsTheGalleryEvenWithHangUpBlocked() throws {
    let blockHangUp =
      "import os, signal, sys; signal.pthread_sigmask(signal.SIG_BLOCK, [signal.SIGHUP]); "
      + "os.execv(sys.argv[1], sys.argv[1:])"
    let tmux = try Tmux(
      command: [
        "python3", "-c", blockHangUp, GalleryBinary.path, "gallery", "--graphics", "blocks",
        "--no-disk-cache", "--items", "60", "--latency", "fixed:0ms",
      ], columns: Self.columns, rows: Self.rows)
    _ = try tmux.waitFor("the first screen") { Tmux.plain($0).contains("photos 1–") }
    let pid = tmux.panePID
    try #require(pid > 0)
    try tmux.killPane()
    let deadline = ContinuousClock.now + .seconds(10)
    while kill(pid, 0) == 0 && ContinuousClock.now < deadline {
      Thread.sleep(forTimeInterval: 0.05)
    }
    #expect(kill(pid, 0) != 0, "the gallery still runs 10 s after its terminal went away")
  }
}
