import Foundation
import TesseraUtilities

/// What tmux says about itself and the terminal outside it, asked of tmux once at start and
/// again whenever the pane may have moved (a resize, focus regained, Ctrl-L).
///
/// Images inside tmux depend on all of it: the outer terminal (`client_termtype`, which tmux
/// learns from XTVERSION itself: "kitty(0.26.5)", "XTerm(379)"), whether the pane lets escape
/// sequences through to it (`allow-passthrough`), where the pane sits on the outer screen (an
/// image sent through passthrough is placed in the outer terminal's coordinates), and whether
/// focus changes reach the pane (then images drawn past tmux are cleared and redrawn when the
/// person switches panes or windows).
public struct TmuxState: Sendable, Hashable, CustomStringConvertible {
  /// tmux's version, numbers only: "3.3a" is [3, 3], "next-3.5" is [3, 5].
  public var version: [Int]
  /// `allow-passthrough` is `on` or `all` for the pane.
  public var passthrough: Bool
  /// `focus-events` is on: focus in and out reach the pane.
  public var focusEvents: Bool
  /// The outer terminal as tmux learned it (`client_termtype`), when known.
  public var outerTerminal: String?
  /// The outer terminal's `TERM` (`client_termname`).
  public var outerTermName: String?
  /// The pane's top-left cell on the outer terminal's screen, clamped to ``TerminalLimits``.
  public var paneOrigin: CellPoint

  public init(
    version: [Int], passthrough: Bool, focusEvents: Bool = false, outerTerminal: String? = nil,
    outerTermName: String? = nil, paneOrigin: CellPoint = CellPoint(x: 0, y: 0)
  ) {
    self.version = version
    self.passthrough = passthrough
    self.focusEvents = focusEvents
    self.outerTerminal = outerTerminal
    self.outerTermName = outerTermName
    self.paneOrigin = paneOrigin
  }

  /// The format `tmux display-message -p` answers; fields split by tabs, in this order.
  static let format =
    "#{version}\t#{client_termtype}\t#{client_termname}\t#{pane_left}\t#{pane_top}"

  /// Reads tmux's answers: the `display-message` line of ``format``, then the values of
  /// `allow-passthrough` and `focus-events`, one a line. Nil when the first line is not
  /// tmux's. Every number is clamped: tmux is outside input too.
  public static func parse(_ answer: String) -> TmuxState? {
    let lines = answer.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    guard let first = lines.first else { return nil }
    let fields = first.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
    guard fields.count == 5 else { return nil }
    let version = versionNumbers(fields[0])
    guard !version.isEmpty else { return nil }
    func option(_ index: Int) -> String {
      index < lines.count ? lines[index].trimmingCharacters(in: .whitespaces) : ""
    }
    // A number too long for Int is past any limit, not 0.
    func coordinate(_ text: String, limit: Int) -> Int {
      let digits = !text.isEmpty && text.allSatisfy { $0.isASCII && $0.isNumber }
      return (Int(text) ?? (digits ? limit : 0)).clamped(to: 0...limit)
    }
    return TmuxState(
      version: version, passthrough: ["on", "all"].contains(option(1)),
      focusEvents: option(2) == "on",
      outerTerminal: fields[1].isEmpty ? nil : fields[1],
      outerTermName: fields[2].isEmpty ? nil : fields[2],
      paneOrigin: CellPoint(
        x: coordinate(fields[3], limit: TerminalLimits.maximumColumns),
        y: coordinate(fields[4], limit: TerminalLimits.maximumRows)))
  }

  /// The numbers in a version string, at most four, each clamped: "kitty(0.26.5)" is
  /// [0, 26, 5], "3.3a" is [3, 3].
  public static func versionNumbers(_ text: String) -> [Int] {
    var numbers: [Int] = []
    var current: Int?
    var started = false
    for character in text {
      if let digit = character.wholeNumberValue, character.isASCII {
        current = min((current ?? 0) * 10 + digit, 1_000_000_000)
        started = true
      } else {
        if let value = current { numbers.append(value) }
        current = nil
        // Only the first run of dotted numbers: "kitty(0.26.5) x 2" stops at the space.
        if started && character != "." { break }
      }
      if numbers.count == 4 { break }
    }
    if let value = current, numbers.count < 4 { numbers.append(value) }
    return numbers
  }

  /// Asks the tmux server of `environment`'s `TMUX` about the pane `TMUX_PANE`; nil outside
  /// tmux or when tmux does not answer within two seconds.
  public static func query(
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> TmuxState? {
    guard let socket = environment["TMUX"], !socket.isEmpty else { return nil }
    var target: [String] = []
    if let pane = environment["TMUX_PANE"], !pane.isEmpty { target = ["-t", pane] }
    let arguments =
      ["display-message", "-p"] + target + [format, ";", "show-options", "-Apv"] + target
      + ["allow-passthrough", ";", "show-options", "-gv", "focus-events"]
    guard let output = ChildProcess.output(of: "tmux", arguments: arguments, timeout: 2)
    else { return nil }
    return parse(output)
  }

  public var description: String {
    "tmux \(version.map(String.init).joined(separator: ".")), passthrough "
      + "\(passthrough ? "on" : "off"), focus events \(focusEvents ? "on" : "off"), outer "
      + "\(outerTerminal ?? outerTermName ?? "unknown"), pane at \(paneOrigin.x),\(paneOrigin.y)"
  }
}

/// A cell's position (0-based column and row).
public struct CellPoint: Sendable, Hashable {
  public var x: Int
  public var y: Int
  public init(x: Int, y: Int) {
    self.x = x
    self.y = y
  }
}
