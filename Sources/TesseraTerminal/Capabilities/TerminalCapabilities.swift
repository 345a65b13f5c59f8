import Foundation

/// What the terminal can do, decided from the environment, tmux's answers (``TmuxState``) and
/// the replies to a few queries (see ``CapabilityProbe``): the image protocol and how it
/// reaches the terminal, synchronized output, in-band resize.
public struct TerminalCapabilities: Sendable, Hashable, CustomStringConvertible {
  public var graphics: GraphicsProtocol
  /// DEC mode 2026: frames appear whole.
  public var synchronizedOutput: Bool
  /// DEC mode 2048: resizes arrive in the input stream.
  public var inBandResize: Bool
  /// Running inside tmux.
  public var insideTmux: Bool
  /// Image commands go to the terminal outside tmux through tmux's passthrough, placed in
  /// the outer screen's coordinates (``TmuxState/paneOrigin``).
  public var passthrough: Bool
  /// Kitty images are drawn by Unicode placeholder cells (virtual placements), which tmux
  /// stores, scrolls and clips as text; kitty draws them from 0.28 on.
  public var kittyPlaceholders: Bool
  /// What tmux said, inside tmux.
  public var tmux: TmuxState?
  /// One cell in pixels, within ``TerminalLimits`` (1…512 a side).
  public var cellPixelSize: PixelSize
  /// Where ``cellPixelSize`` came from ("the terminal (CSI 16 t)", "the window size", …).
  public var cellSizeSource: String
  /// XTVERSION's answer (the outer terminal's, inside tmux), or TERM_PROGRAM, when known.
  public var terminalName: String?
  /// Why ``graphics`` was chosen, in words (`tessera doctor` prints it).
  public var reason: String
  /// Other protocols the terminal's answers or names allow, besides ``graphics`` (`tessera
  /// doctor` draws a test image in each).
  public var alsoClaimed: [GraphicsProtocol] = []
  /// Settings that would give better images here (a tmux.conf line, `--graphics`); empty
  /// when nothing is off. The gallery's status bar says the first one once.
  public var advice: [String]
  /// These capabilities describe a live ``TerminalSession`` (``TerminalSession/detectCapabilities(override:budget:environment:tmux:)``
  /// sets it): a renderer made from them notices when the session takes the terminal back
  /// after a suspend (Ctrl-Z, then `fg`), and then redraws everything and uploads its images
  /// again, as the terminal's screen and image store were reset meanwhile.
  public var followsSession: Bool
  /// The terminal reads files on this machine: it answered the local-file probe (a
  /// temporary file, `t=t`) with OK, as a kitty running here does and one at the other end
  /// of SSH cannot. Kitty uploads then go through temporary files: a path on the wire
  /// instead of the pixels.
  public var kittyLocalFiles: Bool

  public init(
    graphics: GraphicsProtocol, synchronizedOutput: Bool = false, inBandResize: Bool = false,
    insideTmux: Bool = false, passthrough: Bool? = nil, kittyPlaceholders: Bool? = nil,
    tmux: TmuxState? = nil, cellPixelSize: PixelSize = PixelSize(width: 10, height: 20),
    cellSizeSource: String = "assumed", terminalName: String? = nil, reason: String = "",
    advice: [String] = [], followsSession: Bool = false, kittyLocalFiles: Bool = false
  ) {
    self.graphics = graphics
    self.synchronizedOutput = synchronizedOutput
    self.inBandResize = inBandResize
    self.insideTmux = insideTmux
    self.passthrough =
      passthrough ?? Self.kittyThroughTmuxByDefault(insideTmux: insideTmux, graphics: graphics)
    self.kittyPlaceholders =
      kittyPlaceholders
      ?? Self.kittyThroughTmuxByDefault(insideTmux: insideTmux, graphics: graphics)
    self.tmux = tmux
    self.cellPixelSize =
      TerminalLimits.cellSize(width: cellPixelSize.width, height: cellPixelSize.height)
      ?? PixelSize(width: 10, height: 20)
    self.cellSizeSource = cellSizeSource
    self.terminalName = terminalName
    self.reason = reason
    self.advice = advice
    self.followsSession = followsSession
    self.kittyLocalFiles = kittyLocalFiles
  }

  /// Inside tmux, unless told otherwise, kitty images go as placeholders through passthrough:
  /// the default of both ``passthrough`` and ``kittyPlaceholders``, here and in
  /// `TerminalRenderer`.
  static func kittyThroughTmuxByDefault(insideTmux: Bool, graphics: GraphicsProtocol) -> Bool {
    insideTmux && graphics == .kitty
  }

  /// Terminals whose name says they speak kitty graphics.
  static let kittyTerminals = ["kitty", "ghostty", "konsole"]
  /// Terminals whose name says they speak iTerm2's inline images (OSC 1337) and do it best
  /// of what they speak: iTerm2 itself, WezTerm (whose kitty graphics lack placeholders and
  /// parts of placement) and VS Code's terminal.
  static let iTerm2Terminals = ["iterm", "wezterm", "vscode"]

  /// The line for tmux.conf that lets images through.
  public static let passthroughAdvice =
    "images need tmux's passthrough: add `set -g allow-passthrough on` to ~/.tmux.conf"
  /// The line for tmux.conf that tells the gallery when its pane is left and regained.
  public static let focusAdvice =
    "add `set -g focus-events on` to ~/.tmux.conf (then detach and attach again): images "
    + "drawn past tmux are cleared when you switch panes or windows"

  /// The replies of one probe, sorted.
  struct Answers {
    var version: String?
    /// DA1 answers in the order they came: inside tmux, tmux's own first, then the outer
    /// terminal's through passthrough.
    var deviceAttributes: [[Int]] = []
    var kittyAnswered = false
    var localFilesAnswered = false
    var modes: [Int: Int] = [:]
    var cellSize: PixelSize?
    var textAreaCells: TerminalSize?
    var textAreaPixels: PixelSize?

    init(_ replies: [TerminalReply]) {
      for reply in replies {
        switch reply {
        case .version(let text): version = text
        case .primaryDeviceAttributes(let attributes): deviceAttributes.append(attributes)
        case .kittyGraphics(let id, let message) where id == KittyCommands.localFileProbeID:
          localFilesAnswered = localFilesAnswered || message == "OK"
        case .kittyGraphics(_, let message): kittyAnswered = kittyAnswered || message == "OK"
        case .modeReport(let mode, let state): modes[mode] = state
        case .cellPixelSize(let size):
          cellSize = TerminalLimits.cellSize(width: size.width, height: size.height)
        case .textAreaSize(let size): textAreaCells = size
        case .textAreaPixels(let size): textAreaPixels = size
        }
      }
    }
  }

  /// What the terminal's names say it speaks.
  struct Names {
    var kitty: Bool
    var iTerm2: Bool
    /// A kitty that draws Unicode placeholders: kitty 0.28 or later, or Ghostty.
    var kittyPlaceholders: Bool

    init(_ names: [String], kittyVersion: String?) {
      let lowered = names.map { $0.lowercased() }
      func named(_ list: [String]) -> Bool {
        list.contains { name in lowered.contains { $0.contains(name) } }
      }
      kitty = named(kittyTerminals)
      iTerm2 = named(iTerm2Terminals)
      let version = kittyVersion.map(TmuxState.versionNumbers) ?? []
      kittyPlaceholders =
        lowered.contains { $0.contains("ghostty") }
        || (lowered.contains { $0.contains("kitty") } && !version.isEmpty
          && !version.lexicographicallyPrecedes([0, 28]))
    }
  }

  /// Decides capabilities; pure, so every rule is tested.
  ///
  /// Graphics, first match wins: the app's override; then, outside tmux, kitty when a name
  /// (`TERM`, `TERM_PROGRAM`, `KITTY_WINDOW_ID`, XTVERSION) is a kitty-protocol terminal;
  /// iTerm2's inline images when a name is iTerm2, WezTerm or VS Code (`TERM_PROGRAM`,
  /// `LC_TERMINAL`, which survive SSH; WezTerm answers the kitty query too, but draws iTerm2's
  /// images fully); kitty when the kitty query was answered OK; sixel when DA1 carries 4;
  /// else blocks.
  ///
  /// Inside tmux (`TMUX` set): sixel when tmux itself answers DA1 with 4 (tmux 3.4 built with
  /// sixel draws it in the pane). With `allow-passthrough`, the outer terminal (its XTVERSION
  /// and DA1 through passthrough, or tmux's `client_termtype`): kitty with placeholders for a
  /// kitty from 0.28 (or Ghostty); kitty placed directly, through passthrough at the pane's
  /// position, for an older kitty or another kitty-protocol terminal; iTerm2's images or sixel
  /// through passthrough likewise. Without passthrough: blocks, advising the tmux.conf line
  /// when the outer terminal would draw images.
  public static func decide(
    environment: [String: String], replies: [TerminalReply], override: GraphicsProtocol? = nil,
    windowSize: TerminalSize? = nil, tmux: TmuxState? = nil
  ) -> TerminalCapabilities {
    let answers = Answers(replies)
    let insideTmux = environment["TMUX"].map { !$0.isEmpty } ?? false
    let term = environment["TERM"] ?? ""
    let program = environment["TERM_PROGRAM"] ?? ""
    let lcTerminal = environment["LC_TERMINAL"] ?? ""
    // Inside tmux, TERM and TERM_PROGRAM name tmux; the outer terminal is what tmux learned,
    // what answered through passthrough, or what the environment kept (KITTY_WINDOW_ID,
    // LC_TERMINAL).
    let outerName = answers.version ?? tmux?.outerTerminal
    let names =
      insideTmux
      ? [outerName ?? "", tmux?.outerTermName ?? "", lcTerminal]
      : [
        term, program, lcTerminal, answers.version ?? "",
        environment["WEZTERM_EXECUTABLE"] != nil ? "wezterm" : "",
      ]
    let named = Names(names, kittyVersion: outerName)
    let kittyEnvironment = environment["KITTY_WINDOW_ID"] != nil
    var graphics = GraphicsProtocol.blocks
    var passthrough = false
    var placeholders = false
    var reason = ""
    var advice: [String] = []
    if insideTmux {
      let own = answers.deviceAttributes.first ?? []
      let outer = answers.deviceAttributes.dropFirst().first ?? []
      // The outer terminal answered only through passthrough, which is asked only when tmux
      // said it is on; without tmux's answers (no tmux on PATH) only the environment speaks.
      let outerKitty =
        (tmux?.passthrough == true && answers.kittyAnswered) || named.kitty || kittyEnvironment
      if own.dropFirst().contains(4) {
        (graphics, reason) = (.sixel, "tmux draws sixel itself (its DA1 carries 4)")
      } else if let tmux, !tmux.passthrough {
        let outerDraws =
          outerKitty || named.iTerm2 || (outerName ?? "").lowercased().hasPrefix("xterm")
          || (outerName ?? "").lowercased().hasPrefix("mlterm")
        reason = "inside tmux with allow-passthrough off: half blocks"
        if outerDraws { advice.append(passthroughAdvice) }
      } else if tmux == nil {
        if kittyEnvironment {
          (graphics, passthrough, placeholders) = (.kitty, true, true)
          reason = "KITTY_WINDOW_ID says kitty is outside tmux (tmux did not answer)"
        } else {
          reason = "inside tmux, which did not answer (is tmux on PATH?): half blocks"
        }
      } else if outerKitty && named.kittyPlaceholders {
        (graphics, passthrough, placeholders) = (.kitty, true, true)
        reason =
          "\(outerName ?? "kitty") outside tmux draws Unicode placeholders: kitty graphics "
          + "through passthrough, tmux scrolls and clips them"
      } else if named.iTerm2 {
        (graphics, passthrough) = (.iterm2, true)
        reason = "\(outerName ?? lcTerminal) outside tmux: iTerm2 images through passthrough"
      } else if outerKitty {
        (graphics, passthrough) = (.kitty, true)
        reason =
          "\(outerName ?? "kitty") outside tmux has no Unicode placeholders (kitty draws them "
          + "from 0.28): kitty placements through passthrough, at the pane's position"
      } else if outer.dropFirst().contains(4) {
        (graphics, passthrough) = (.sixel, true)
        reason = "\(outerName ?? "the terminal") outside tmux draws sixel: through passthrough"
      } else {
        reason = "the terminal outside tmux answered no image protocol: half blocks"
      }
      if passthrough, !placeholders, let tmux, !tmux.focusEvents { advice.append(focusAdvice) }
    } else if named.kitty || kittyEnvironment {
      (graphics, reason) = (.kitty, "the terminal's name says kitty graphics")
    } else if named.iTerm2 {
      // Before the kitty query: WezTerm answers it too, but draws iTerm2's images fully.
      graphics = .iterm2
      reason = "\(program.isEmpty ? lcTerminal : program) shows iTerm2's inline images best"
    } else if answers.kittyAnswered {
      (graphics, reason) = (.kitty, "the terminal answered the kitty graphics query")
    } else if answers.deviceAttributes.last?.dropFirst().contains(4) == true {
      graphics = .sixel
      reason = "the terminal's DA1 carries 4 (sixel)"
    } else {
      reason = "the terminal answered no image protocol: half blocks"
    }
    var claimed: [GraphicsProtocol] = []
    let reachable = !insideTmux || tmux?.passthrough == true
    let sixelAnswered =
      insideTmux
      ? (answers.deviceAttributes.dropFirst().first ?? []).dropFirst().contains(4)
      : answers.deviceAttributes.last?.dropFirst().contains(4) == true
    if reachable {
      if answers.kittyAnswered || named.kitty || kittyEnvironment { claimed.append(.kitty) }
      if sixelAnswered { claimed.append(.sixel) }
      if named.iTerm2 { claimed.append(.iterm2) }
    }
    if let override, override != graphics {
      reason = "--graphics \(override) (detected: \(graphics))"
      graphics = override
      advice.removeAll()
      // Inside tmux an override still goes to the outer terminal, where tmux lets it; kitty
      // as placeholders where they are drawn, and where the outer terminal is not known
      // (no tmux answers, or no client attached): what a current kitty draws.
      let tmuxDrawsSixel = answers.deviceAttributes.first?.dropFirst().contains(4) == true
      passthrough =
        insideTmux && override != .blocks && (tmux?.passthrough ?? true)
        && !(override == .sixel && tmuxDrawsSixel)
      placeholders =
        insideTmux && override == .kitty
        && (named.kittyPlaceholders || tmux == nil || (outerName == nil && !named.kitty))
    }
    func supported(_ mode: Int) -> Bool { [1, 2, 3, 4].contains(answers.modes[mode] ?? 0) }
    // The text area in pixels over its size in cells, when the terminal told both.
    let fromTextArea = answers.textAreaPixels.flatMap { pixels in
      (answers.textAreaCells ?? windowSize).flatMap { cells in
        TerminalSize(
          columns: cells.columns, rows: cells.rows, pixelWidth: pixels.width,
          pixelHeight: pixels.height
        ).cellPixelSize
      }
    }
    let (cell, cellSource): (PixelSize, String) =
      if let size = answers.cellSize {
        (size, "the terminal's answer to CSI 16 t")
      } else if let size = windowSize?.cellPixelSize {
        (size, "the window's size in pixels (TIOCGWINSZ)")
      } else if let size = fromTextArea {
        (size, "the text area's size in pixels (CSI 14 t)")
      } else {
        (PixelSize(width: 10, height: 20), "assumed (the terminal did not say)")
      }
    var capabilities = TerminalCapabilities(
      graphics: graphics, synchronizedOutput: supported(2026), inBandResize: supported(2048),
      insideTmux: insideTmux, passthrough: passthrough, kittyPlaceholders: placeholders,
      tmux: tmux, cellPixelSize: cell, cellSizeSource: cellSource,
      terminalName: outerName ?? (program.isEmpty ? nil : program), reason: reason,
      advice: advice,
      kittyLocalFiles: graphics == .kitty && answers.localFilesAnswered && reachable)
    capabilities.alsoClaimed = claimed.filter { $0 != graphics }
    return capabilities
  }

  public var description: String {
    "graphics \(graphics)\(passthrough ? " through tmux's passthrough" : "")"
      + "\(kittyPlaceholders ? " (placeholders)" : ""), sync \(synchronizedOutput), "
      + "in-band resize \(inBandResize), tmux \(insideTmux), cell \(cellPixelSize), terminal "
      + "\(terminalName ?? "?"), kitty local files \(kittyLocalFiles)"
  }
}

/// The queries capability detection sends, and when it has heard enough.
public enum CapabilityProbe {
  /// Outside tmux: the kitty graphics query, the local-file probe (see
  /// ``TerminalCapabilities/kittyLocalFiles``), XTVERSION, DECRQM 2026 and 2048, cell size,
  /// then DA1 last: every terminal answers DA1, and answers in order, so its reply ends the
  /// wait.
  ///
  /// Inside tmux with passthrough allowed, the questions for the outer terminal (kitty, local
  /// files, XTVERSION, cell size, DA1) go through passthrough and tmux's own DA1 follows; tmux
  /// answers its own at once, the outer terminal's comes second and ends the wait. Without
  /// passthrough only tmux is asked: a bare kitty query would become the window's title.
  ///
  /// Reading it may write the probe's 3-byte temporary file (`/dev/shm/tessera-tty-graphics-
  /// protocol-<pid>-probe`); a kitty that reads it deletes it, and ``isComplete(_:expecting:)``
  /// removes it once the probe is answered (and the process at exit, whatever happened).
  public static func query(insideTmux: Bool = false, passthrough: Bool = false) -> [UInt8] {
    let modes = Array("\u{1B}[?2026$p\u{1B}[?2048$p".utf8)
    let outer = Array("\u{1B}[>0q\u{1B}[16t\u{1B}[c".utf8)
    guard insideTmux else {
      return KittyCommands.query + localFileProbe() + modes + outer
    }
    guard passthrough else { return modes + Array("\u{1B}[16t\u{1B}[c".utf8) }
    var out = ByteWriter()
    out.append(modes)
    TmuxPassthrough.wrap(KittyCommands.query + localFileProbe() + outer, into: &out)
    out.append(Array("\u{1B}[c".utf8))
    return out.bytes
  }

  /// How many DA1 answers close the probe ``query(insideTmux:passthrough:)`` sends.
  public static func expectedDeviceAttributes(insideTmux: Bool, passthrough: Bool) -> Int {
    insideTmux && passthrough ? 2 : 1
  }

  /// The probe file's path.
  static let probePath = KittyLocalFiles.newPath("probe")

  /// Writes the probe file and returns the query naming it; nothing when it cannot be
  /// written (then no local files are used).
  private static func localFileProbe() -> [UInt8] {
    removeProbeFile()
    guard KittyLocalFiles.write([0, 0, 0], to: probePath) else { return [] }
    _ = registerCleanup
    return KittyCommands.localFileQuery(path: probePath)
  }

  /// Removes the probe file if the terminal did not.
  static func removeProbeFile() { unlink(probePath) }

  private static let registerCleanup: Void = {
    atexit { CapabilityProbe.removeProbeFile() }
  }()

  /// Whether `replies` include the `expecting` DA1 answers that close the probe. Once they
  /// do, the probe file is removed: the terminal read it, if it could, before it answered.
  public static func isComplete(_ replies: [TerminalReply], expecting: Int = 1) -> Bool {
    let answers = replies.filter {
      if case .primaryDeviceAttributes = $0 { return true }
      return false
    }
    let complete = answers.count >= expecting
    if complete { removeProbeFile() }
    return complete
  }
}
