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

  /// The line for tmux.conf that lets images through.
  public static let passthroughAdvice =
    "images need tmux's passthrough: add `set -g allow-passthrough on` to ~/.tmux.conf"
  /// The line for tmux.conf that tells the gallery when its pane is left and regained.
  public static let focusAdvice =
    "add `set -g focus-events on` to ~/.tmux.conf (then detach and attach again): images "
    + "drawn past tmux are cleared when you switch panes or windows"

  /// The replies of one probe, sorted.
  struct Answers: Sendable {
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

  /// Decides capabilities; pure, so every rule is tested.
  ///
  /// Graphics: the app's override, else the first rule of ``GraphicsRule``'s tables that
  /// applies (one table outside tmux, one inside), over the replies, tmux's answers and the
  /// names' ``TerminalQuirks``.
  public static func decide(
    environment: [String: String], replies: [TerminalReply], override: GraphicsProtocol? = nil,
    windowSize: TerminalSize? = nil, tmux: TmuxState? = nil
  ) -> TerminalCapabilities {
    let evidence = GraphicsRule.Evidence(environment: environment, replies: replies, tmux: tmux)
    let (answers, insideTmux, quirks) = (evidence.answers, evidence.insideTmux, evidence.quirks)
    let (outerName, program, kittyEnvironment) =
      (evidence.outerName, evidence.program, evidence.kittyEnvironment)
    let choice = GraphicsRule.decide(evidence).choice
    var (graphics, passthrough, placeholders) =
      (choice.graphics, choice.passthrough, choice.placeholders)
    var (reason, advice) = (choice.reason, choice.advice)
    if insideTmux, passthrough, !placeholders, let tmux, !tmux.focusEvents {
      advice.append(focusAdvice)
    }
    var claimed: [GraphicsProtocol] = []
    let reachable = !insideTmux || tmux?.passthrough == true
    let sixelAnswered =
      insideTmux
      ? (answers.deviceAttributes.dropFirst().first ?? []).dropFirst().contains(4)
      : answers.deviceAttributes.last?.dropFirst().contains(4) == true
    if reachable {
      if answers.kittyAnswered || quirks.speaksKitty || kittyEnvironment { claimed.append(.kitty) }
      if sixelAnswered { claimed.append(.sixel) }
      if quirks.prefersITerm2 { claimed.append(.iterm2) }
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
        && (evidence.drawsPlaceholders || tmux == nil || (outerName == nil && !quirks.speaksKitty))
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

  /// The terminal moves sixel pixels with its text when a region scrolls
  /// (``TerminalQuirks/movesSixelWithText``, by ``terminalName``): a renderer then scrolls a
  /// moved sixel tile instead of drawing it again. Unknown terminals are redrawn tile by tile.
  public var sixelMovesWithText: Bool {
    TerminalQuirks(names: [terminalName ?? ""]).movesSixelWithText
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
