import Foundation
import TesseraGeometry
import TesseraTestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// The terminals the real-terminal tests drive, with what each needs installed.
enum RealTerminalKind: String, CustomStringConvertible, Sendable {
  /// xterm as a VT340: sixel graphics.
  case xterm
  /// kitty with software GL: the kitty graphics protocol.
  case kitty
  /// mlterm: sixel (its own decoder, which paints a sixel band whole).
  case mlterm
  /// Konsole: the kitty graphics protocol (and iTerm2's). Konsole 22.12 has no way to read its
  /// text (no D-Bus text getter): inside tmux, tmux's copy of the pane is the text; outside,
  /// the gallery's output is recorded and replayed into a private tmux (`TerminalReplay`).
  case konsole

  var description: String { rawValue }

  /// Programs the tests run, each with the Debian package that has it.
  var tools: [(program: String, package: String)] {
    let common = [
      ("Xvfb", "xvfb"), ("import", "imagemagick"), ("xdotool", "xdotool"),
    ]
    switch self {
    case .xterm: return common + [("xterm", "xterm"), ("pv", "pv"), ("script", "bsdutils")]
    case .kitty: return common + [("kitty", "kitty")]
    case .mlterm: return common + [("mlterm", "mlterm")]
    case .konsole:
      return common + [("konsole", "konsole"), ("tmux", "tmux"), ("script", "bsdutils")]
    }
  }

  /// The Debian packages whose programs (or the pinned fonts) are missing; empty when the
  /// tests can run.
  var missingPackages: [String] {
    let path = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(
      separator: ":")
    let programs = tools.filter { tool in
      !path.contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(tool.program)") }
    }.map(\.package)
    let fonts = PinnedFonts.files.filter { !FileManager.default.fileExists(atPath: $0.path) }
    return programs + Set(fonts.map(\.package)).sorted()
  }

  /// The largest cell, in screen pixels, this terminal draws with its pinned font: the screen
  /// is sized from it, and a window whose cells are larger fails the test with both sizes.
  /// Measured under Xvfb with the pinned fonts: xterm's 6x13 is 6×13, kitty's DejaVu Sans
  /// Mono at 10 pt 8×16, mlterm's at 16 px 10×19 (with Noto Sans Mono, the default where
  /// `fonts-noto-mono` is installed, mlterm's cells were 10×22 and its 120×40 window did not
  /// fit the 1280×800 screen the tests had); a pixel's room on each for rounding.
  var largestCell: (width: Int, height: Int) {
    switch self {
    case .xterm: (6, 13)
    case .kitty: (9, 17)
    case .mlterm: (11, 20)
    case .konsole: (10, 20)
    }
  }

  /// Konsole's toolbar, above its text area, which no setting hides.
  var chromeHeight: Int { self == .konsole ? 80 : 0 }

  /// Why the tests in this terminal are skipped, for the test report.
  var skipReason: String {
    "\(self) end-to-end tests need the Debian packages \(missingPackages.joined(separator: ", "))"
      + " (scripts/install-deps.sh installs them)"
  }
}

/// The fonts every real terminal is pinned to, whatever the machine's default monospace is
/// (Debian's `fonts-noto-mono`, which timg, chafa and GNOME pull in, has taller cells than
/// DejaVu's): a private fontconfig file that knows only DejaVu's folder, given to each terminal
/// through `FONTCONFIG_FILE`, and each terminal's own font setting naming the same family.
/// xterm draws with the X server's core font `6x13` (`xfonts-base`), named on its command line.
enum PinnedFonts {
  static let family = "DejaVu Sans Mono"
  static let folder = "/usr/share/fonts/truetype/dejavu"

  /// The files the pinned fonts need, with the Debian package that has each.
  static let files: [(path: String, package: String)] = [
    ("\(folder)/DejaVuSansMono.ttf", "fonts-dejavu-core"),
    ("/usr/share/fonts/X11/misc/6x13.pcf.gz", "xfonts-base"),
  ]

  /// Writes a fontconfig file into `folder` (with its cache beside it) that knows DejaVu's
  /// fonts only, monospace meaning DejaVu Sans Mono; returns its path for `FONTCONFIG_FILE`.
  static func configuration(in folder: URL) throws -> String {
    let file = folder.appendingPathComponent("fonts.conf")
    try """
    <?xml version="1.0"?>
    <!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">
    <fontconfig>
      <dir>\(Self.folder)</dir>
      <cachedir>\(folder.appendingPathComponent("fontconfig-cache").path)</cachedir>
      <alias binding="strong"><family>monospace</family><prefer><family>\(family)</family></prefer></alias>
      <alias binding="strong"><family>sans-serif</family><prefer><family>DejaVu Sans</family></prefer></alias>
      <alias binding="strong"><family>serif</family><prefer><family>DejaVu Serif</family></prefer></alias>
    </fontconfig>
    """.write(to: file, atomically: true, encoding: .utf8)
    return file.path
  }
}

/// A gallery running in a real terminal emulator on a private Xvfb display, driven as a person
/// would: keys through the X server, the screen read back as a screenshot (the pixels the
/// terminal drew, images included) and as the terminal's own text. Everything it starts (Xvfb,
/// the terminal, the gallery) is stopped in `deinit`, pass or fail.
final class RealTerminal {
  let kind: RealTerminalKind
  let display: XvfbDisplay
  let folder: URL
  private var terminal: BackgroundProcess?
  private(set) var galleryPID: pid_t = 0
  private(set) var window = ""
  /// One cell in screen pixels; the terminal's text area starts at the root's (0, 0).
  private(set) var cellWidth = 0
  private(set) var cellHeight = 0
  /// Where the text area starts in the root window: (0, 0) but in Konsole, whose toolbar no
  /// setting hides; screenshots are shifted by it.
  private(set) var origin = (x: 0, y: 0)
  private(set) var columns: Int
  private(set) var rows: Int

  /// The private tmux server the gallery runs in, when `insideTmux`.
  private var tmuxSocket: String?
  /// Where `script` records the gallery's output, for a terminal that cannot tell its text.
  private var record: String?

  /// The terminal's own colours: the tests' (white on magenta, which no picture or text is)
  /// or black on white (xterm's default, and many people's light theme; xterm only).
  enum Colours {
    case tests
    case blackOnWhite
  }

  /// Starts `tessera` with `arguments` in a `columns`×`rows` terminal of `kind`; with
  /// `insideTmux`, in a tmux session (passthrough allowed) inside that terminal; with
  /// `linkBytesPerSecond`, as over SSH: in a pseudo-terminal of its own (`script`) whose output
  /// reaches the terminal through `pv` at that rate, `SSH_CONNECTION` set (the terminal's
  /// answers and the keys come back at once).
  init(
    _ kind: RealTerminalKind, arguments: [String], columns: Int, rows: Int,
    insideTmux: Bool = false, colours: Colours = .tests, linkBytesPerSecond: Int? = nil
  ) throws {
    self.kind = kind
    self.colours = colours
    self.columns = columns
    self.rows = rows
    folder = TemporaryFolder.make(prefix: "tessera-rt")
    // Room for the window at its pinned font's largest cell, and for a resize to 150×45.
    let cell = kind.largestCell
    display = try XvfbDisplay(
      width: max(columns, 150) * cell.width + 16,
      height: max(rows, 45) * cell.height + kind.chromeHeight + 16, logFolder: folder)
    // The shell records the gallery's pid, then becomes the gallery.
    let pidFile = folder.appendingPathComponent("gallery.pid").path
    var gallery =
      ["sh", "-c", "echo $$ > \(Tmux.quote(pidFile)); exec \"$@\"", "sh", GalleryBinary.path]
      + arguments
    if let rate = linkBytesPerSecond {
      let inner = (["env", "SSH_CONNECTION=127.0.0.1 50000 127.0.0.1 22"] + gallery)
        .map(Tmux.quote).joined(separator: " ")
      gallery = ["sh", "-c", "script -qfec \"$0\" /dev/null | pv -qL \(max(1, rate))", inner]
    }
    if kind == .konsole, !insideTmux {
      let record = folder.appendingPathComponent("output.record").path
      self.record = record
      gallery = TerminalReplay.recording(gallery, into: record)
    }
    if insideTmux {
      let socket = "tessera-rt-\(UUID().uuidString.prefix(8))"
      let configuration = folder.appendingPathComponent("tmux.conf")
      try "set -g allow-passthrough on\nset -g status off\nset -g focus-events on\n".write(
        to: configuration, atomically: true, encoding: .utf8)
      tmuxSocket = socket
      gallery =
        ["tmux", "-L", socket, "-f", configuration.path, "new-session"]
        + [gallery.map(Tmux.quote).joined(separator: " ")]
    }
    var environment = [
      "DISPLAY": display.name, "LIBGL_ALWAYS_SOFTWARE": "1",
      "FONTCONFIG_FILE": try PinnedFonts.configuration(in: folder),
    ]
    if kind == .mlterm {
      // mlterm reads its key bindings from ~/.mlterm/key: F12 writes the screen's text to
      // ~/.mlterm/<tty>-<time>.snp (the tests' way to read captions).
      let keys = folder.appendingPathComponent(".mlterm", isDirectory: true)
      try FileManager.default.createDirectory(at: keys, withIntermediateDirectories: true)
      try "F12=\"proto:snapshot\"\n".write(
        to: keys.appendingPathComponent("key"), atomically: true, encoding: .utf8)
      environment["HOME"] = folder.path
    }
    if kind == .konsole {
      try writeKonsoleProfile()
      environment["HOME"] = folder.path
      environment["QT_QPA_PLATFORM"] = "xcb"
      environment["XDG_RUNTIME_DIR"] = folder.path
    }
    terminal = try BackgroundProcess(
      command(gallery), environment: environment,
      log: folder.appendingPathComponent("\(kind).log").path)
    try awaitWindow()
    let deadline = ContinuousClock.now + .seconds(30)
    while galleryPID == 0, ContinuousClock.now < deadline {
      let text = (try? String(contentsOfFile: pidFile, encoding: .utf8)) ?? ""
      galleryPID = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
      if galleryPID == 0 { Thread.sleep(forTimeInterval: 0.05) }
    }
  }

  deinit {
    if let tmuxSocket { _ = try? Spawn.run(["tmux", "-L", tmuxSocket, "kill-server"]) }
    terminal?.stop()
    BackgroundProcess.stop(foreign: galleryPID)
    try? FileManager.default.removeItem(at: folder)
  }

  private let colours: Colours

  private var kittySocket: String { "unix:" + folder.appendingPathComponent("kitty.sock").path }
  private var xtermDumpPrefix: String { folder.appendingPathComponent("screen").path }

  private func command(_ program: [String]) -> [String] {
    switch kind {
    case .xterm:
      return [
        "xterm", "-ti", "vt340", "-geometry", "\(columns)x\(rows)+0+0", "-b", "0", "-bw", "0",
        "-fn", "6x13",
      ]
        + (colours == .tests
          ? ["-bg", RealTerminalScreen.backgroundHex, "-fg", "white"]
          : ["-bg", "white", "-fg", "black"]) + [
          "-xrm", "XTerm*maxGraphicSize: 4000x4000",
          "-xrm", "XTerm*numColorRegisters: 1024",
          // F12 writes the screen's text to a file (the tests' way to read captions).
          "-xrm", "XTerm*printFileImmediate: \(xtermDumpPrefix)",
          "-xrm", "XTerm*printModeImmediate: 0",
          "-xrm", "XTerm.vt100.translations: #override <Key>F12: print-immediate()",
          "-e",
        ] + program
    case .mlterm:
      return [
        "mlterm", "--geometry", "\(columns)x\(rows)+0+0", "--border=0", "--sb=false",
        "--type=xft", "--fontsize=16",
        "--bg=\(RealTerminalScreen.backgroundHex)", "--fg=white", "-e",
      ] + program
    case .konsole:
      return ["konsole", "--nofork", "--separate", "--hide-menubar", "--hide-tabbar", "-e"]
        + program
    case .kitty:
      return [
        "kitty", "--config", "NONE", "-o", "allow_remote_control=yes",
        "--listen-on", kittySocket, "-o", "window_padding_width=0",
        "-o", "placement_strategy=top-left", "-o", "remember_window_size=no",
        "-o", "initial_window_width=\(columns)c", "-o", "initial_window_height=\(rows)c",
        "-o", "background=\(RealTerminalScreen.backgroundHex)", "-o", "font_size=10",
        "-o", "font_family=\(PinnedFonts.family)",
        "-o", "enable_audio_bell=no",
      ] + program
    }
  }

  /// Konsole's settings under the test's HOME: a profile of `columns`×`rows` cells with no
  /// margin and no scrollbar, in the tests' background colour, used by default.
  private func writeKonsoleProfile() throws {
    let share = folder.appendingPathComponent(".local/share/konsole", isDirectory: true)
    let config = folder.appendingPathComponent(".config", isDirectory: true)
    for directory in [share, config] {
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }
    let background = RealTerminalScreen.background
    try """
    [Background]
    Color=\(background.red),\(background.green),\(background.blue)
    [Foreground]
    Color=255,255,255
    [General]
    Description=Tessera tests
    """.write(
      to: share.appendingPathComponent("Tessera.colorscheme"), atomically: true, encoding: .utf8)
    try """
    [Appearance]
    ColorScheme=Tessera
    Font=\(PinnedFonts.family),10,-1,5,50,0,0,0,0,0
    [General]
    Name=Tessera
    Parent=FALLBACK/
    TerminalColumns=\(columns)
    TerminalRows=\(rows)
    TerminalMargin=0
    TerminalCenter=false
    [Scrolling]
    ScrollBarPosition=2
    """.write(
      to: share.appendingPathComponent("Tessera.profile"), atomically: true, encoding: .utf8)
    try """
    [Desktop Entry]
    DefaultProfile=Tessera.profile
    [KonsoleWindow]
    ShowMenuBarByDefault=false
    RememberWindowSize=false
    [TabBar]
    TabBarVisibility=AlwaysHideTabBar
    """.write(to: config.appendingPathComponent("konsolerc"), atomically: true, encoding: .utf8)
  }

  /// Konsole's text area: where the gallery's title bar (row 0, dark edge to edge; tmux may
  /// have turned its colour into the nearest of 256) starts below Konsole's light toolbar.
  private func findKonsoleTextArea() throws {
    // The bar is dark; Konsole's toolbar light, and the frame around its text area magenta.
    func isTerminal(_ colour: RGB) -> Bool { max(colour.red, colour.green, colour.blue) < 110 }
    let deadline = ContinuousClock.now + .seconds(30)
    while ContinuousClock.now < deadline {
      let shot = try screenshot()
      if let y = (0..<(shot.height / 2)).first(where: { isTerminal(shot[12, $0]) }),
        let x = (0..<40).first(where: { isTerminal(shot[$0, y + 2]) })
      {
        origin = (x, y)
        return
      }
      Thread.sleep(forTimeInterval: 0.1)
    }
    throw Spawn.Failure(description: "Konsole's text area was not found (no title bar drawn)")
  }

  /// Waits for the terminal's window, focuses it (xterm ignores synthetic events sent to a
  /// window, so keys go to the focused window) and derives the cell size from its geometry.
  private func awaitWindow() throws {
    let deadline = ContinuousClock.now + .seconds(60)
    while ContinuousClock.now < deadline {
      guard terminal?.isRunning == true else {
        throw Spawn.Failure(
          description: "\(kind) exited on display \(display.name) (errno \(errno)): \(log)")
      }
      let found = (try? display.run(["xdotool", "search", "--onlyvisible", "--class", "\(kind)"]))
      if let id = found?.split(separator: "\n").first, let size = try? windowSize(String(id)),
        size.width >= columns, size.height >= rows
      {
        guard size.width <= display.width, size.height <= display.height else {
          throw Spawn.Failure(
            description: "the \(kind) window is \(size.width)×\(size.height) px for "
              + "\(columns)×\(rows) cells, larger than the \(display.width)×\(display.height) "
              + "screen sized for cells of at most \(kind.largestCell): its font is not the "
              + "pinned \(PinnedFonts.family)")
        }
        window = String(id)
        cellWidth = size.width / columns
        cellHeight = size.height / rows
        try display.run(["xdotool", "windowfocus", "--sync", window])
        if kind == .konsole {
          try findKonsoleTextArea()
          cellHeight = (size.height - origin.y) / rows
        }
        return
      }
      Thread.sleep(forTimeInterval: 0.1)
    }
    throw Spawn.Failure(description: "no \(kind) window appeared: \(log)")
  }

  /// What the terminal printed on its own (errors), for failure messages.
  var log: String {
    (try? String(
      contentsOf: folder.appendingPathComponent("\(kind).log"), encoding: .utf8)) ?? ""
  }

  private func windowSize(_ id: String) throws -> (width: Int, height: Int) {
    let text = try display.run(["xdotool", "getwindowgeometry", id])
    guard let line = text.split(separator: "\n").first(where: { $0.contains("Geometry:") }),
      let value = line.split(separator: " ").last
    else { throw Spawn.Failure(description: "no geometry in \(text)") }
    let parts = value.split(separator: "x").compactMap { Int($0) }
    guard parts.count == 2 else { throw Spawn.Failure(description: "bad geometry \(value)") }
    return (parts[0], parts[1])
  }

  /// Runs a tmux command on the gallery's tmux server (`insideTmux` only) and returns what it
  /// printed.
  @discardableResult
  func tmux(_ arguments: String...) throws -> String {
    guard let tmuxSocket else { throw Spawn.Failure(description: "the gallery is not in tmux") }
    return try Spawn.run(["tmux", "-L", tmuxSocket] + arguments).output
  }

  // MARK: input

  /// Presses keys (X keysym names: "j", "Next", "Escape") in the focused terminal.
  func key(_ names: String...) throws {
    try display.run(["xdotool", "key", "--delay", "20"] + names)
  }

  /// Turns the mouse wheel over the middle of the screen: down (button 5) or up (button 4).
  func wheel(down: Bool, clicks: Int) throws {
    try display.run([
      "xdotool", "mousemove", String(columns * cellWidth / 2), String(rows * cellHeight / 2),
      "click", "--repeat", String(clicks), "--delay", "15", down ? "5" : "4",
    ])
  }

  /// Resizes the terminal's window to `columns`×`rows` cells (the gallery gets SIGWINCH).
  func resize(columns: Int, rows: Int) throws {
    guard columns * cellWidth <= display.width, rows * cellHeight <= display.height else {
      throw Spawn.Failure(
        description: "\(columns)×\(rows) cells of \(cellWidth)×\(cellHeight) px do not fit "
          + "the \(display.width)×\(display.height) screen")
    }
    try display.run([
      "xdotool", "windowsize", window, String(columns * cellWidth), String(rows * cellHeight),
    ])
    self.columns = columns
    self.rows = rows
  }

  // MARK: output

  /// The root window as the X server holds it: what the terminal drew, images included.
  func screenshot() throws -> RealTerminalScreen.Pixels {
    let file = folder.appendingPathComponent("shot.png")
    try display.run(["import", "-window", "root", "png:" + file.path])
    if origin != (0, 0) {
      // The text area moved to (0, 0), the screen's size kept.
      try display.run([
        "convert", file.path, "-crop", "+\(origin.x)+\(origin.y)", "+repage", "-background",
        "black", "-extent", "\(display.width)x\(display.height)", "png:" + file.path,
      ])
    }
    let data = try Data(contentsOf: file)
    guard
      let decoded = TestImages.decode(data, fitting: display.width, display.height),
      decoded.width == display.width
    else { throw Spawn.Failure(description: "the screenshot did not decode") }
    return RealTerminalScreen.Pixels(decoded)
  }

  /// The terminal's text, one string per row (images are not text: their cells read as
  /// blanks), asked of the terminal itself.
  func text() throws -> String {
    switch kind {
    case .kitty:
      return try display.run(["kitty", "@", "--to", kittySocket, "get-text"])
    case .konsole where record != nil:
      return try TerminalReplay.text(ofRecord: record ?? "", columns: columns, rows: rows)
    case .mlterm where tmuxSocket != nil, .konsole:
      // mlterm's snapshot drops the cells tmux skips with cursor moves, so every caption reads
      // at column 0: inside tmux, tmux's own copy of the gallery's pane (the first) is the text.
      let lines = try tmux("capture-pane", "-p", "-t", "%0").split(
        separator: "\n", omittingEmptySubsequences: false)
      return lines.prefix(rows).joined(separator: "\n") + "\n"
    case .mlterm:
      let snapshots = folder.appendingPathComponent(".mlterm", isDirectory: true)
      let files = {
        ((try? FileManager.default.contentsOfDirectory(atPath: snapshots.path)) ?? [])
          .filter { $0.hasSuffix(".snp") }
      }
      for old in files() {
        try? FileManager.default.removeItem(at: snapshots.appendingPathComponent(old))
      }
      return try dumpedScreen(what: "snapshot") {
        guard let name = files().first else { return nil }
        let text =
          (try? String(contentsOf: snapshots.appendingPathComponent(name), encoding: .utf8)) ?? ""
        // One line a row; the last has no newline.
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        return lines.count >= rows ? lines.prefix(rows).joined(separator: "\n") + "\n" : nil
      }
    case .xterm:
      let files = { [folder] in
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
          .filter { $0.hasPrefix("screen") }
      }
      for old in files() {
        try? FileManager.default.removeItem(at: folder.appendingPathComponent(old))
      }
      return try dumpedScreen(what: "screen dump") {
        guard let name = files().first else { return nil }
        let text =
          (try? String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)) ?? ""
        // xterm writes the file in one go, a line per row: complete once all rows are in.
        // After the window shrinks, lines it pushed off the top come first: the screen is
        // the last `rows` lines.
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        return lines.count >= rows ? lines.suffix(rows).joined(separator: "\n") + "\n" : nil
      }
    }
  }

  /// Presses F12 (bound to the terminal's screen dump) and waits for `read` to find the dump
  /// complete. A terminal under load can lose the key (a 2-core CI machine running the suites
  /// beside it once let mlterm write nothing for 10 s), so it is pressed again every 2 s.
  private func dumpedScreen(what: String, _ read: () -> String?) throws -> String {
    let deadline = ContinuousClock.now + .seconds(20)
    var presses = 0
    var nextPress = ContinuousClock.now
    while ContinuousClock.now < deadline {
      if ContinuousClock.now >= nextPress {
        try key("F12")
        presses += 1
        nextPress = ContinuousClock.now + .seconds(2)
      }
      if let text = read() { return text }
      Thread.sleep(forTimeInterval: 0.02)
    }
    throw Spawn.Failure(
      description: "\(kind) wrote no \(what) in 20 s after \(presses) presses of F12")
  }

  /// Every byte the gallery wrote so far, for a terminal whose output is recorded (Konsole
  /// outside tmux).
  func recordedOutput() throws -> [UInt8] {
    guard let record else { throw Spawn.Failure(description: "\(kind)'s output is not recorded") }
    return Array(try Data(contentsOf: URL(fileURLWithPath: record)))
  }

  /// The screen the terminal is not in the middle of drawing: a screenshot, the text, and a
  /// second screenshot that matches the first. Nil when the screen kept changing.
  func stableScreen(attempts: Int = 10) throws -> RealTerminalScreen? {
    for _ in 0..<attempts {
      let before = try screenshot()
      let text = try text()
      let after = try screenshot()
      if before == after {
        return RealTerminalScreen(
          pixels: after, text: text, cellWidth: cellWidth, cellHeight: cellHeight)
      }
    }
    return nil
  }

  /// Polls stable screens until `condition` holds, up to `timeout`: waiting for a state the
  /// gallery reaches by itself (images arriving over loopback), never a fixed delay.
  @discardableResult
  func waitFor(
    _ what: String, timeout: Duration = .seconds(120),
    _ condition: (RealTerminalScreen) throws -> Bool
  ) throws -> RealTerminalScreen {
    let deadline = ContinuousClock.now + timeout
    var last: RealTerminalScreen?
    while ContinuousClock.now < deadline {
      if let screen = try stableScreen(attempts: 1) {
        last = screen
        if try condition(screen) { return screen }
      }
      Thread.sleep(forTimeInterval: 0.1)
    }
    let tiles = last.map { "grid/waterfall \($0.tiles(.tiles)), list \($0.tiles(.list))" }
    throw Spawn.Failure(
      description: "timed out waiting for \(what) in \(kind); the last screenshot is "
        + "\(keepLastScreenshot()); tiles: \(tiles ?? "none"); text was:\n\(last?.text ?? "none")")
  }

  /// Copies the last screenshot out of the folder `deinit` removes, for a person to look at.
  private func keepLastScreenshot() -> String {
    let kept = FileManager.default.temporaryDirectory
      .appendingPathComponent("tessera-rt-failure-\(kind)-\(UUID().uuidString.prefix(8)).png")
    do {
      try FileManager.default.copyItem(at: folder.appendingPathComponent("shot.png"), to: kept)
      return kept.path
    } catch {
      return "lost (\(error))"
    }
  }
}
