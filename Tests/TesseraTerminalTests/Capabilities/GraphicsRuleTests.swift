import Testing

@testable import TesseraTerminal

/// One scenario per row of ``GraphicsRule``'s tables: the row it names is the one that
/// decides, and the protocol is the row's. A row without a scenario fails the last test.
@Suite struct GraphicsRuleTests {
  struct Scenario: Sendable, CustomTestStringConvertible {
    let rule: String
    let environment: [String: String]
    let replies: [TerminalReply]
    let tmux: TmuxState?
    let graphics: GraphicsProtocol
    var testDescription: String { rule }
  }

  static let inTmux = ["TMUX": "/tmp/tmux-0/default,1,0", "TERM": "tmux-256color"]
  static let tmuxDA1 = TerminalReply.primaryDeviceAttributes([1, 2])
  static let kittyOK = TerminalReply.kittyGraphics(imageID: 31, message: "OK")

  static func tmux(_ outer: String?, passthrough: Bool = true) -> TmuxState {
    TmuxState(
      version: [3, 3], passthrough: passthrough, focusEvents: true, outerTerminal: outer,
      paneOrigin: CellPoint(x: 0, y: 0))
  }

  static let scenarios: [Scenario] = [
    Scenario(
      rule: "named kitty", environment: ["TERM": "xterm-kitty"],
      replies: [.primaryDeviceAttributes([62])], tmux: nil, graphics: .kitty),
    Scenario(
      rule: "named iTerm2", environment: ["TERM": "xterm-256color", "TERM_PROGRAM": "WezTerm"],
      replies: [kittyOK, .primaryDeviceAttributes([62, 4])], tmux: nil, graphics: .iterm2),
    Scenario(
      rule: "kitty answered", environment: ["TERM": "xterm-256color"],
      replies: [kittyOK, .primaryDeviceAttributes([62])], tmux: nil, graphics: .kitty),
    Scenario(
      rule: "DA1 sixel", environment: ["TERM": "xterm"],
      replies: [.version("XTerm(379)"), .primaryDeviceAttributes([63, 4])], tmux: nil,
      graphics: .sixel),
    Scenario(
      rule: "nothing answered", environment: ["TERM": "xterm"],
      replies: [.primaryDeviceAttributes([62])], tmux: nil, graphics: .blocks),
    Scenario(
      rule: "tmux draws sixel", environment: inTmux,
      replies: [.primaryDeviceAttributes([62, 4])], tmux: tmux("XTerm(379)"), graphics: .sixel),
    Scenario(
      rule: "passthrough off", environment: inTmux, replies: [tmuxDA1],
      tmux: tmux("kitty(0.35.2)", passthrough: false), graphics: .blocks),
    Scenario(
      rule: "tmux silent, kitty's environment",
      environment: inTmux.merging(
        ["KITTY_WINDOW_ID": "1"]) { $1 }, replies: [], tmux: nil, graphics: .kitty),
    Scenario(rule: "tmux silent", environment: inTmux, replies: [], tmux: nil, graphics: .blocks),
    Scenario(
      rule: "kitty placeholders outside", environment: inTmux,
      replies: [tmuxDA1, kittyOK, .version("kitty(0.35.2)"), .primaryDeviceAttributes([62])],
      tmux: tmux("kitty(0.35.2)"), graphics: .kitty),
    Scenario(
      rule: "iTerm2 outside", environment: inTmux, replies: [tmuxDA1],
      tmux: tmux("WezTerm 20240203"), graphics: .iterm2),
    Scenario(
      rule: "kitty outside", environment: inTmux,
      replies: [tmuxDA1, kittyOK, .version("kitty(0.26.5)"), .primaryDeviceAttributes([62])],
      tmux: tmux("kitty(0.26.5)"), graphics: .kitty),
    Scenario(
      rule: "sixel outside", environment: inTmux,
      replies: [tmuxDA1, .version("XTerm(379)"), .primaryDeviceAttributes([63, 4])],
      tmux: tmux("XTerm(379)"), graphics: .sixel),
    Scenario(
      rule: "nothing answered outside", environment: inTmux,
      replies: [tmuxDA1, .primaryDeviceAttributes([62])], tmux: tmux("foo"), graphics: .blocks),
  ]

  @Test(arguments: scenarios)
  func theRowNamedDecides(scenario: Scenario) {
    let evidence = GraphicsRule.Evidence(
      environment: scenario.environment, replies: scenario.replies, tmux: scenario.tmux)
    let decided = GraphicsRule.decide(evidence)
    #expect(decided.rule == scenario.rule)
    #expect(decided.choice.graphics == scenario.graphics)
    let capabilities = TerminalCapabilities.decide(
      environment: scenario.environment, replies: scenario.replies, tmux: scenario.tmux)
    #expect(capabilities.graphics == scenario.graphics)
    #expect(capabilities.reason == decided.choice.reason)
  }

  @Test func everyRowHasItsScenario() {
    let rows = (GraphicsRule.direct + GraphicsRule.insideTmux).map(\.name)
    #expect(Set(rows).count == rows.count, "two rows share a name")
    #expect(Set(rows) == Set(Self.scenarios.map(\.rule)))
  }

  /// Quirks are the table's: a name picks its row's, case and version aside.
  @Test func quirksComeFromTheTable() {
    #expect(TerminalQuirks(names: ["kitty(0.26.5)"]).speaksKitty)
    #expect(TerminalQuirks(names: ["Konsole 22.12"]).speaksKitty)
    #expect(TerminalQuirks(names: ["WezTerm"]).prefersITerm2)
    #expect(!TerminalQuirks(names: ["WezTerm"]).speaksKitty)
    #expect(TerminalQuirks(names: ["XTerm(379)"]).movesSixelWithText)
    #expect(TerminalQuirks(names: [""]) == TerminalQuirks())
    let ghostty = TerminalQuirks(names: ["ghostty 1.1.3"])
    #expect(ghostty.drawsKittyPlaceholders(names: ["ghostty 1.1.3"], version: "ghostty 1.1.3"))
    let kitty = TerminalQuirks(names: ["kitty(0.27.1)"])
    #expect(!kitty.drawsKittyPlaceholders(names: ["kitty(0.27.1)"], version: "kitty(0.27.1)"))
    #expect(kitty.drawsKittyPlaceholders(names: ["kitty(0.28.0)"], version: "kitty(0.28.0)"))
  }
}
