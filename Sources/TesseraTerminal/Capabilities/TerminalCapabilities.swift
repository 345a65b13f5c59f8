import Foundation

/// What the terminal can do, decided from the environment and the replies to a few queries
/// (see ``CapabilityProbe``): the image protocol, synchronized output, in-band resize.
public struct TerminalCapabilities: Sendable, Hashable, CustomStringConvertible {
  public var graphics: GraphicsProtocol
  /// DEC mode 2026: frames appear whole.
  public var synchronizedOutput: Bool
  /// DEC mode 2048: resizes arrive in the input stream.
  public var inBandResize: Bool
  /// Running inside tmux: kitty images use Unicode placeholders and passthrough.
  public var insideTmux: Bool
  /// One cell in pixels, within ``TerminalLimits`` (1…512 a side).
  public var cellPixelSize: PixelSize
  /// XTVERSION's answer, or TERM_PROGRAM, when known.
  public var terminalName: String?
  /// These capabilities describe a live ``TerminalSession`` (``TerminalSession/detectCapabilities(override:budget:environment:)``
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
    insideTmux: Bool = false, cellPixelSize: PixelSize = PixelSize(width: 10, height: 20),
    terminalName: String? = nil, followsSession: Bool = false, kittyLocalFiles: Bool = false
  ) {
    self.graphics = graphics
    self.synchronizedOutput = synchronizedOutput
    self.inBandResize = inBandResize
    self.insideTmux = insideTmux
    self.cellPixelSize =
      TerminalLimits.cellSize(width: cellPixelSize.width, height: cellPixelSize.height)
      ?? PixelSize(width: 10, height: 20)
    self.terminalName = terminalName
    self.followsSession = followsSession
    self.kittyLocalFiles = kittyLocalFiles
  }

  /// Terminals whose name says they speak kitty graphics.
  static let kittyTerminals = ["kitty", "wezterm", "ghostty", "konsole"]

  /// Decides capabilities; pure, so every rule is tested.
  ///
  /// Graphics, first match wins: the app's override; inside tmux, kitty placeholders when
  /// the outer terminal is kitty (KITTY_WINDOW_ID survives into tmux), sixel when tmux itself
  /// reports it (DA1 4, tmux ≥ 3.4 built with sixel), else blocks; outside tmux, kitty when
  /// the kitty query was answered OK or the environment or XTVERSION names a kitty-protocol
  /// terminal; sixel when DA1 carries 4; else blocks.
  public static func decide(
    environment: [String: String], replies: [TerminalReply], override: GraphicsProtocol? = nil,
    windowSize: TerminalSize? = nil
  ) -> TerminalCapabilities {
    var version: String?
    var deviceAttributes: [Int] = []
    var kittyAnswered = false
    var localFilesAnswered = false
    var modes: [Int: Int] = [:]
    var cellSize: PixelSize?
    var textAreaCells: TerminalSize?
    var textAreaPixels: PixelSize?
    for reply in replies {
      switch reply {
      case .version(let text): version = text
      case .primaryDeviceAttributes(let attributes): deviceAttributes = attributes
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
    let insideTmux = environment["TMUX"].map { !$0.isEmpty } ?? false
    let term = (environment["TERM"] ?? "").lowercased()
    let program = (environment["TERM_PROGRAM"] ?? "").lowercased()
    let names = [term, program, (version ?? "").lowercased()]
    let namesKitty =
      environment["KITTY_WINDOW_ID"] != nil || environment["WEZTERM_EXECUTABLE"] != nil
      || kittyTerminals.contains { name in names.contains { $0.contains(name) } }
    let sixel = deviceAttributes.dropFirst().contains(4)
    let graphics: GraphicsProtocol
    if let override {
      graphics = override
    } else if insideTmux {
      graphics = environment["KITTY_WINDOW_ID"] != nil ? .kitty : sixel ? .sixel : .blocks
    } else if kittyAnswered || namesKitty {
      graphics = .kitty
    } else if sixel {
      graphics = .sixel
    } else {
      graphics = .blocks
    }
    func supported(_ mode: Int) -> Bool { [1, 2, 3, 4].contains(modes[mode] ?? 0) }
    // The text area in pixels over its size in cells, when the terminal told both.
    let fromTextArea = textAreaPixels.flatMap { pixels in
      (textAreaCells ?? windowSize).flatMap { cells in
        TerminalSize(
          columns: cells.columns, rows: cells.rows, pixelWidth: pixels.width,
          pixelHeight: pixels.height
        ).cellPixelSize
      }
    }
    return TerminalCapabilities(
      graphics: graphics, synchronizedOutput: supported(2026), inBandResize: supported(2048),
      insideTmux: insideTmux,
      cellPixelSize: cellSize ?? windowSize?.cellPixelSize ?? fromTextArea
        ?? PixelSize(width: 10, height: 20),
      terminalName: version ?? environment["TERM_PROGRAM"],
      // Inside tmux the probe never reaches the terminal (it is not passed through).
      kittyLocalFiles: graphics == .kitty && localFilesAnswered && !insideTmux)
  }

  public var description: String {
    "graphics \(graphics), sync \(synchronizedOutput), in-band resize \(inBandResize), "
      + "tmux \(insideTmux), cell \(cellPixelSize), terminal \(terminalName ?? "?"), "
      + "kitty local files \(kittyLocalFiles)"
  }
}

/// The queries capability detection sends, and when it has heard enough.
public enum CapabilityProbe {
  /// Kitty graphics query, the local-file probe (see ``TerminalCapabilities/kittyLocalFiles``),
  /// XTVERSION, DECRQM 2026 and 2048, cell size, then DA1 last: every terminal answers DA1,
  /// and answers in order, so its reply ends the wait.
  ///
  /// Reading it writes the probe's 3-byte temporary file (`/dev/shm/tessera-tty-graphics-
  /// protocol-<pid>-probe`); a kitty that reads it deletes it, and ``isComplete(_:)``
  /// removes it once the probe is answered (and the process at exit, whatever happened).
  public static var query: [UInt8] {
    KittyCommands.query + localFileProbe()
      + Array("\u{1B}[>0q\u{1B}[?2026$p\u{1B}[?2048$p\u{1B}[16t\u{1B}[c".utf8)
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

  /// Whether `replies` include the DA1 answer that closes the probe.
  /// Once it is, the probe file is removed: the terminal read it, if it could, before it
  /// answered DA1.
  public static func isComplete(_ replies: [TerminalReply]) -> Bool {
    let complete = replies.contains {
      if case .primaryDeviceAttributes = $0 { return true }
      return false
    }
    if complete { removeProbeFile() }
    return complete
  }
}
