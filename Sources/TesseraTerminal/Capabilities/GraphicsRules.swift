/// How the image protocol is chosen: two tables of rules, one for a terminal Tessera talks to
/// directly and one for inside tmux, each read from the top, the first rule that applies
/// deciding. A new protocol or a new way to recognise a terminal is one row (and a test of
/// it: `GraphicsRuleTests` runs one scenario per row and fails on a row without one).
///
/// - Complexity: O(rules) per decision.
struct GraphicsRule: Sendable {
  /// What a rule sees: the replies, tmux's answers, the names and their quirks.
  struct Evidence: Sendable {
    var answers: TerminalCapabilities.Answers
    var insideTmux: Bool
    var tmux: TmuxState?
    /// The terminal outside tmux as XTVERSION or tmux named it; outside tmux, XTVERSION's.
    var outerName: String?
    var program: String
    var lcTerminal: String
    var quirks: TerminalQuirks
    /// The named terminal draws kitty's Unicode placeholders.
    var drawsPlaceholders: Bool
    /// `KITTY_WINDOW_ID` is set: kitty started the shell (it survives tmux and SSH's
    /// `SendEnv`).
    var kittyEnvironment: Bool

    /// The evidence in `environment`, the probe's `replies` and tmux's answers. Inside tmux,
    /// `TERM` and `TERM_PROGRAM` name tmux; the outer terminal is what tmux learned, what
    /// answered through passthrough, or what the environment kept (`KITTY_WINDOW_ID`,
    /// `LC_TERMINAL`).
    init(environment: [String: String], replies: [TerminalReply], tmux: TmuxState?) {
      answers = TerminalCapabilities.Answers(replies)
      insideTmux = environment["TMUX"].map { !$0.isEmpty } ?? false
      self.tmux = tmux
      program = environment["TERM_PROGRAM"] ?? ""
      lcTerminal = environment["LC_TERMINAL"] ?? ""
      outerName = answers.version ?? tmux?.outerTerminal
      let names =
        insideTmux
        ? [outerName ?? "", tmux?.outerTermName ?? "", lcTerminal]
        : [
          environment["TERM"] ?? "", program, lcTerminal, answers.version ?? "",
          environment["WEZTERM_EXECUTABLE"] != nil ? "wezterm" : "",
        ]
      quirks = TerminalQuirks(names: names)
      drawsPlaceholders = quirks.drawsKittyPlaceholders(names: names, version: outerName)
      kittyEnvironment = environment["KITTY_WINDOW_ID"] != nil
    }

    /// tmux's own DA1 (inside tmux, the first), and the outer terminal's through passthrough.
    var ownAttributes: [Int] { answers.deviceAttributes.first ?? [] }
    var outerAttributes: [Int] { answers.deviceAttributes.dropFirst().first ?? [] }

    /// The terminal outside tmux speaks kitty graphics: it answered through passthrough
    /// (asked only when tmux said passthrough is on), or its name or environment say so.
    var outerKitty: Bool {
      (tmux?.passthrough == true && answers.kittyAnswered) || quirks.speaksKitty
        || kittyEnvironment
    }

    /// The terminal outside tmux would draw images if tmux let them through.
    var outerDraws: Bool {
      let name = (outerName ?? "").lowercased()
      return outerKitty || quirks.prefersITerm2 || name.hasPrefix("xterm")
        || name.hasPrefix("mlterm")
    }
  }

  /// What a rule decides.
  struct Choice: Sendable {
    var graphics: GraphicsProtocol
    var passthrough = false
    var placeholders = false
    var reason: String
    var advice: [String] = []
  }

  /// A short name, for tests and for reading.
  let name: String
  let applies: @Sendable (Evidence) -> Bool
  let choose: @Sendable (Evidence) -> Choice

  /// A terminal Tessera talks to directly.
  static let direct: [GraphicsRule] = [
    GraphicsRule(name: "named kitty", applies: { $0.quirks.speaksKitty || $0.kittyEnvironment }) {
      _ in Choice(graphics: .kitty, reason: "the terminal's name says kitty graphics")
    },
    // Before the kitty query: WezTerm answers it too, but draws iTerm2's images fully.
    GraphicsRule(name: "named iTerm2", applies: { $0.quirks.prefersITerm2 }) { evidence in
      let name = evidence.program.isEmpty ? evidence.lcTerminal : evidence.program
      return Choice(graphics: .iterm2, reason: "\(name) shows iTerm2's inline images best")
    },
    GraphicsRule(name: "kitty answered", applies: { $0.answers.kittyAnswered }) { _ in
      Choice(graphics: .kitty, reason: "the terminal answered the kitty graphics query")
    },
    GraphicsRule(
      name: "DA1 sixel",
      applies: { $0.answers.deviceAttributes.last?.dropFirst().contains(4) == true }
    ) { _ in Choice(graphics: .sixel, reason: "the terminal's DA1 carries 4 (sixel)") },
    GraphicsRule(name: "nothing answered", applies: { _ in true }) { _ in
      Choice(graphics: .blocks, reason: "the terminal answered no image protocol: half blocks")
    },
  ]

  /// Inside tmux (`TMUX` set): tmux's own answers first, then the outer terminal's (through
  /// passthrough, or tmux's `client_termtype`).
  static let insideTmux: [GraphicsRule] = [
    GraphicsRule(name: "tmux draws sixel", applies: { $0.ownAttributes.dropFirst().contains(4) }) {
      _ in Choice(graphics: .sixel, reason: "tmux draws sixel itself (its DA1 carries 4)")
    },
    GraphicsRule(name: "passthrough off", applies: { $0.tmux?.passthrough == false }) {
      evidence in
      Choice(
        graphics: .blocks, reason: "inside tmux with allow-passthrough off: half blocks",
        advice: evidence.outerDraws ? [TerminalCapabilities.passthroughAdvice] : [])
    },
    GraphicsRule(
      name: "tmux silent, kitty's environment", applies: { $0.tmux == nil && $0.kittyEnvironment }
    ) { _ in
      Choice(
        graphics: .kitty, passthrough: true, placeholders: true,
        reason: "KITTY_WINDOW_ID says kitty is outside tmux (tmux did not answer)")
    },
    GraphicsRule(name: "tmux silent", applies: { $0.tmux == nil }) { _ in
      Choice(
        graphics: .blocks,
        reason: "inside tmux, which did not answer (is tmux on PATH?): half blocks")
    },
    GraphicsRule(
      name: "kitty placeholders outside", applies: { $0.outerKitty && $0.drawsPlaceholders }
    ) { evidence in
      Choice(
        graphics: .kitty, passthrough: true, placeholders: true,
        reason: "\(evidence.outerName ?? "kitty") outside tmux draws Unicode placeholders: "
          + "kitty graphics through passthrough, tmux scrolls and clips them")
    },
    GraphicsRule(name: "iTerm2 outside", applies: { $0.quirks.prefersITerm2 }) { evidence in
      Choice(
        graphics: .iterm2, passthrough: true,
        reason: "\(evidence.outerName ?? evidence.lcTerminal) outside tmux: iTerm2 images "
          + "through passthrough")
    },
    GraphicsRule(name: "kitty outside", applies: { $0.outerKitty }) { evidence in
      Choice(
        graphics: .kitty, passthrough: true,
        reason: "\(evidence.outerName ?? "kitty") outside tmux has no Unicode placeholders "
          + "(kitty draws them from 0.28): kitty placements through passthrough, at the "
          + "pane's position")
    },
    GraphicsRule(name: "sixel outside", applies: { $0.outerAttributes.dropFirst().contains(4) }) {
      evidence in
      Choice(
        graphics: .sixel, passthrough: true,
        reason: "\(evidence.outerName ?? "the terminal") outside tmux draws sixel: through "
          + "passthrough")
    },
    GraphicsRule(name: "nothing answered outside", applies: { _ in true }) { _ in
      Choice(
        graphics: .blocks,
        reason: "the terminal outside tmux answered no image protocol: half blocks")
    },
  ]

  /// The first rule of the table for `evidence` that applies, and its choice. Both tables end
  /// in a rule that always applies.
  static func decide(_ evidence: Evidence) -> (rule: String, choice: Choice) {
    let table = evidence.insideTmux ? insideTmux : direct
    let rule = table.first { $0.applies(evidence) } ?? table[table.count - 1]
    return (rule.name, rule.choose(evidence))
  }
}
