import Foundation
import TesseraBenchSupport
import TesseraUtilities

/// One terminal's measurements in `tessera bench link` (see ``LinkBench``).
struct LinkRun {
  struct Link {
    var bytesPerSecond: Double
    var delay: Double
    var buffer: Int
  }

  let flavour: ModelTerminal.Flavour
  let link: Link
  let files: [URL]
  let folder: URL
  let columns: Int
  let rows: Int
  let timg: String
  let chafa: String
  /// tmux to run the gallery inside, on the link's far side from the terminal, as most people
  /// run it over SSH; nil: the gallery straight in the pseudo-terminal.
  let tmux: String?

  /// The peer over the same link: timg's grid in kitty; in xterm chafa's sixels, one photo after
  /// another (Debian's timg is built without sixel).
  var peerName: String { flavour == .kitty ? "timg" : "chafa" }

  /// The link quiet and the program silent this long: the screen has settled.
  static let quietTime = 1.5
  /// A launch, a key or a fling not settled in this long fails the bench.
  static let patience = 300.0
  static let helpMarker = "this help, quit"

  private struct FirstScreen {
    var tiles: Int
    var pictured: Double
    var full: Double
    var bytes: Int
    /// Of `bytes`, those in graphics strings (``ModelTerminal/graphicsBytes``).
    var graphicsBytes: Int
    var meter: Double?
    /// The photos on it, in the order shown, and its columns of tiles.
    var shown: [URL]
    var columns: Int
  }

  func measure() throws -> BenchReport {
    var report = BenchReport(benchmark: flavour.rawValue + (tmux == nil ? "" : " in tmux"))
    let first = try firstScreen()
    let (keys, fling) = try keysAndFling(tiles: first.tiles)
    let theirs = try peerScreen(first.shown, columns: first.columns)
    report.add("tiles", Double(first.tiles), "tiles")
    report.add("every_tile_pictured_s", first.pictured, "s")
    report.add("full_first_screen_s", first.full, "s")
    report.add("first_screen_bytes", Double(first.bytes), "B")
    report.add("first_screen_graphics_bytes", Double(first.graphicsBytes), "B")
    report.add("\(peerName)_s", theirs.time, "s")
    report.add("\(peerName)_bytes", Double(theirs.bytes), "B")
    report.ratio("full_vs_\(peerName)", ours: first.full, baseline: theirs.time)
    report.ratio(
      "bytes_vs_\(peerName)", ours: Double(first.bytes), baseline: Double(theirs.bytes))
    report.add("key_p50_ms", keys.median / 1e6, "ms")
    report.add("key_p95_ms", keys.percentile(0.95) / 1e6, "ms")
    report.add("key_max_ms", keys.percentile(1) / 1e6, "ms")
    report.add("fling_settle_s", fling, "s")
    if let meter = first.meter {
      report.ratio("link_meter_vs_rate", ours: meter, baseline: link.bytesPerSecond)
    } else {
      report.note("\(flavour.rawValue): the status bar showed no link rate")
    }
    return report
  }

  // MARK: The gallery

  private func gallery() throws -> (LinkSession, URL) {
    let home = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tessera-bench-link-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
    var arguments = [Self.tesseraPath, folder.path]
    if let tmux { arguments = try Self.inside(tmux: tmux, arguments, home: home) }
    let session = try LinkSession(
      arguments: arguments, environment: environment(cache: home),
      terminal: model(), bytesPerSecond: link.bytesPerSecond, delay: link.delay,
      bufferLimit: link.buffer, errorLog: home.appendingPathComponent("stderr").path)
    return (session, home)
  }

  private func firstScreen() throws -> FirstScreen {
    let (session, home) = try gallery()
    defer { stop(session, home: home) }
    // Quiet before any picture is not a first screen (a slow start inside tmux, say).
    guard session.pump(until: { $0.pictures > 0 }, timeout: Self.patience) else {
      throw failure("no picture arrived", session)
    }
    try settle(session, what: "the first screen")
    let tiles = session.pictures
    guard tiles > 0 else { throw failure("the first screen showed no picture", session) }
    guard let pictured = session.pictureTimeline.first(where: { $0.pictures >= tiles })?.time
    else { throw failure("no time had every tile pictured", session) }
    // The captions name the photos shown (the newest first); a caption cut short is missed,
    // and timg then gets the files in the walk's order.
    let screen = session.terminal.text
    let named = files.compactMap { file in
      screen.range(of: file.lastPathComponent).map { (file, $0.lowerBound) }
    }.sorted { $0.1 < $1.1 }.map(\.0)
    return FirstScreen(
      tiles: tiles, pictured: pictured, full: session.lastPictureCompleted,
      bytes: session.bytesArrived, graphicsBytes: session.terminal.graphicsBytes,
      meter: Self.meter(in: session.terminal),
      shown: named.count == tiles ? named : Array(files.prefix(tiles)),
      columns: session.terminal.pictureColumns)
  }

  /// Help card open and close, five times from the first picture on (images still arriving);
  /// then a fling once the screen settled. Returns each key's time to its answer, and the
  /// fling's time to a quiet link.
  private func keysAndFling(tiles: Int) throws -> (Samples, Double) {
    let (session, home) = try gallery()
    defer { stop(session, home: home) }
    guard session.pump(until: { $0.pictures > 0 }, timeout: Self.patience) else {
      throw failure("no picture arrived", session)
    }
    var keys = Samples()
    var whileLoading = 0
    for round in 0..<10 {
      let opening = round % 2 == 0
      let typed = session.now
      if session.pictures < tiles { whileLoading += 1 }
      session.type("?")
      let answered = session.pump(
        until: { $0.terminal.text.contains(Self.helpMarker) == opening }, timeout: 30)
      guard answered else {
        throw failure(
          "`?` was not answered in 30 s (help card \(opening ? "opening" : "closing"))", session)
      }
      keys.append((session.now - typed) * 1e9)
      session.pump(until: { _ in false }, timeout: 0.2)
    }
    guard whileLoading > 0 else {
      throw failure("every key came after the images: nothing measured under load", session)
    }
    try settle(session, what: "the screen after the keys")
    let flung = session.now
    for _ in 0..<5 {
      session.type("\u{1B}[6~")
      session.pump(until: { _ in false }, timeout: 0.05)
    }
    try settle(session, what: "the fling")
    let settled = session.lastArrival - flung
    let bars = (0..<rows).filter { session.terminal.line($0).contains(" of \(files.count)") }
    guard bars.count == 1 else {
      throw failure(
        "after the fling \(bars.count) rows read like the status bar (rows \(bars))", session)
    }
    // Each tile the status bar counts shows one picture: no stale strip, none missing.
    let bar = session.terminal.line(bars[0])
    if let visible = Self.visibleCount(inStatusBar: bar), session.pictures != visible {
      throw failure(
        "after the fling \(session.pictures) pictures are on screen for \(visible) tiles",
        session)
    }
    return (keys, settled)
  }

  /// Stops the gallery, and its tmux server if it ran in one, and removes its folder.
  private func stop(_ session: LinkSession, home: URL) {
    session.stop()
    if let tmux {
      let server = Process()
      server.executableURL = URL(fileURLWithPath: tmux)
      server.arguments = ["-S", Self.tmuxSocket(home).path, "kill-server"]
      server.standardError = FileHandle.nullDevice
      if (try? server.run()) != nil { server.waitUntilExit() }
    }
    try? FileManager.default.removeItem(at: home)
  }

  private static func tmuxSocket(_ home: URL) -> URL { home.appendingPathComponent("tmux") }

  /// `arguments` as the command of a new tmux session of a server of its own in `home`:
  /// passthrough and focus events on (what Tessera's images need there, and what its status
  /// bar asks for until they are), no status line (the screen the same
  /// size as without tmux), tmux-256color inside, the session gone with its client.
  private static func inside(tmux: String, _ arguments: [String], home: URL) throws -> [String] {
    let configuration = home.appendingPathComponent("tmux.conf")
    try """
    set -g allow-passthrough on
    set -g focus-events on
    set -g status off
    set -g default-terminal tmux-256color
    set -g destroy-unattached on
    set -g escape-time 10

    """.write(to: configuration, atomically: true, encoding: .utf8)
    return [tmux, "-S", tmuxSocket(home).path, "-f", configuration.path, "new-session"]
      + arguments
  }

  // MARK: The peer

  /// The peer drawing `shown` as the gallery's first screen had them, `columns` across.
  private func peerScreen(_ shown: [URL], columns: Int) throws -> (time: Double, bytes: Int) {
    let count = shown.count
    let home = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tessera-bench-link-peer-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: home) }
    let arguments =
      flavour == .kitty
      ? [timg, "--grid=\(max(1, columns))", "-pk"]
      : [chafa, "-f", "sixels", "-s", "\(self.columns / max(1, columns) - 1)x\(rows - 2)"]
    let session = try LinkSession(
      arguments: arguments + shown.map(\.path),
      environment: environment(cache: home), terminal: model(),
      bytesPerSecond: link.bytesPerSecond, delay: link.delay, bufferLimit: link.buffer,
      errorLog: home.appendingPathComponent("stderr").path)
    defer { session.stop() }
    guard session.pump(until: { $0.exited && $0.linkIsIdle }, timeout: Self.patience) else {
      throw failure("\(peerName) did not finish in \(Int(Self.patience)) s", session)
    }
    guard session.terminal.picturesCompleted >= count else {
      throw failure(
        "\(peerName) drew \(session.terminal.picturesCompleted) pictures of \(count)", session)
    }
    return (session.lastPictureCompleted, session.bytesArrived)
  }

  // MARK: Support

  private func model() -> ModelTerminal {
    ModelTerminal(flavour: flavour, columns: columns, rows: rows, cellWidth: 10, cellHeight: 20)
  }

  /// This process's environment as a remote shell's: SSH's variables, the terminal's TERM,
  /// no tmux, and a cache of its own.
  private func environment(cache: URL) -> [String: String] {
    var environment = ProcessInfo.processInfo.environment
    for name in [
      "TMUX", "TMUX_PANE", "VIPSHOME", "KITTY_WINDOW_ID", "TERM_PROGRAM", "COLUMNS", "LINES",
    ] {
      environment[name] = nil
    }
    environment["TERM"] = flavour == .kitty ? "xterm-kitty" : "xterm-256color"
    environment["SSH_CONNECTION"] = "127.0.0.1 50000 127.0.0.1 22"
    environment["SSH_TTY"] = "/dev/pts/0"
    environment["XDG_CACHE_HOME"] = cache.path
    return environment
  }

  private func settle(_ session: LinkSession, what: String) throws {
    let settled = session.pump(
      until: { $0.linkIsIdle && $0.now - $0.lastProgramOutput >= Self.quietTime },
      timeout: Self.patience)
    guard settled else {
      throw failure("\(what) did not settle in \(Int(Self.patience)) s", session)
    }
  }

  /// The tiles the status bar counts ("photos 13–24 of 60": 12).
  static func visibleCount(inStatusBar line: String) -> Int? {
    guard let dash = line.firstIndex(of: "–") else { return nil }
    let first = line[..<dash].reversed().prefix { $0.isNumber }
    let last = line[line.index(after: dash)...].prefix { $0.isNumber }
    guard let from = Int(String(first.reversed())), let to = Int(last), to >= from else {
      return nil
    }
    return to - from + 1
  }

  /// The rate the status bar shows ("link 245.1 KB/s"), in bytes a second.
  static func meter(in terminal: ModelTerminal) -> Double? {
    for y in 0..<terminal.rows {
      let line = terminal.line(y)
      guard let range = line.range(of: "link ") else { continue }
      let words = line[range.upperBound...].split(separator: " ", maxSplits: 2)
      guard words.count >= 2, let value = Double(words[0]) else { continue }
      let scale: [Substring: Double] = ["B/s": 1, "KB/s": 1e3, "MB/s": 1e6, "GB/s": 1e9]
      guard let unit = scale[words[1].prefix { $0 != "," }] else { continue }
      return value * unit
    }
    return nil
  }

  private func failure(_ what: String, _ session: LinkSession) -> BenchFailure {
    BenchFailure(
      "\(flavour.rawValue): \(what) (at \(String(format: "%.1f", session.now)) s, \(session.bytesArrived) bytes arrived); the screen:\n\(session.terminal.text)"
    )
  }

  /// This program: the gallery the bench measures is the same build.
  static var tesseraPath: String {
    (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
      ?? CommandLine.arguments[0]
  }
}
