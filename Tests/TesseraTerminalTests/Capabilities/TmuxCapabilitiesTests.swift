import Testing

@testable import TesseraTerminal

/// The protocol chosen inside tmux, from tmux's answers and the outer terminal's replies
/// through passthrough, and outside it from the names iTerm2-protocol terminals give.
@Suite struct TmuxCapabilitiesTests {
  static let environment = ["TMUX": "/tmp/tmux-0/default,1,0", "TERM": "tmux-256color"]
  /// tmux's own DA1, then the outer terminal's (through passthrough).
  static let tmuxDA1 = TerminalReply.primaryDeviceAttributes([1, 2])

  static func tmux(
    _ outer: String?, passthrough: Bool = true, focusEvents: Bool = true
  ) -> TmuxState {
    TmuxState(
      version: [3, 3], passthrough: passthrough, focusEvents: focusEvents, outerTerminal: outer,
      paneOrigin: CellPoint(x: 10, y: 2))
  }

  static func decide(
    _ replies: [TerminalReply], tmux: TmuxState?, environment: [String: String] = environment,
    override: GraphicsProtocol? = nil
  ) -> TerminalCapabilities {
    TerminalCapabilities.decide(
      environment: environment, replies: replies, override: override, tmux: tmux)
  }

  /// Debian 12's kitty 0.26 cannot draw placeholders: its placements go through passthrough.
  @Test func kittyBefore028GetsPlacementsThroughPassthrough() {
    let replies: [TerminalReply] = [
      Self.tmuxDA1, .kittyGraphics(imageID: 31, message: "OK"), .version("kitty(0.26.5)"),
      .primaryDeviceAttributes([62]),
    ]
    let capabilities = Self.decide(replies, tmux: Self.tmux("kitty(0.26.5)", focusEvents: false))
    #expect(capabilities.graphics == .kitty)
    #expect(capabilities.passthrough)
    #expect(!capabilities.kittyPlaceholders)
    #expect(capabilities.advice == [TerminalCapabilities.focusAdvice])
    #expect(capabilities.terminalName == "kitty(0.26.5)")
  }

  @Test func kitty028AndGhosttyGetPlaceholders() {
    for version in ["kitty(0.28.1)", "kitty(0.35.2)", "ghostty 1.1.3"] {
      let replies: [TerminalReply] = [
        Self.tmuxDA1, .kittyGraphics(imageID: 31, message: "OK"), .version(version),
        .primaryDeviceAttributes([62]),
      ]
      let capabilities = Self.decide(replies, tmux: Self.tmux(version))
      #expect(capabilities.graphics == .kitty, "\(version)")
      #expect(capabilities.passthrough && capabilities.kittyPlaceholders, "\(version)")
      #expect(capabilities.advice.isEmpty, "\(version)")
    }
  }

  /// The outer terminal known only from tmux's `client_termtype` (its replies lost) still
  /// decides.
  @Test func tmuxsOwnKnowledgeOfTheOuterTerminalIsEnough() {
    let capabilities = Self.decide([Self.tmuxDA1], tmux: Self.tmux("kitty(0.26.5)"))
    #expect(capabilities.graphics == .kitty && !capabilities.kittyPlaceholders)
  }

  @Test func sixelTerminalsOutsideGetSixelThroughPassthrough() {
    let replies: [TerminalReply] = [
      Self.tmuxDA1, .version("XTerm(379)"), .primaryDeviceAttributes([63, 1, 2, 4, 6, 9]),
    ]
    let capabilities = Self.decide(replies, tmux: Self.tmux("XTerm(379)"))
    #expect(capabilities.graphics == .sixel)
    #expect(capabilities.passthrough)
    #expect(capabilities.alsoClaimed.isEmpty)
    // An xterm that is not a VT340 answers without 4: blocks.
    let plain = Self.decide(
      [Self.tmuxDA1, .version("XTerm(379)"), .primaryDeviceAttributes([63, 1, 2])],
      tmux: Self.tmux("XTerm(379)"))
    #expect(plain.graphics == .blocks)
  }

  /// tmux 3.4 built with sixel answers DA1 with 4 itself and draws sixel in the pane.
  @Test func tmuxWithSixelDrawsItItself() {
    let capabilities = Self.decide(
      [.primaryDeviceAttributes([1, 2, 4]), .primaryDeviceAttributes([62])],
      tmux: Self.tmux("foot(1.16)"))
    #expect(capabilities.graphics == .sixel)
    #expect(!capabilities.passthrough)
  }

  @Test func iTerm2FamilyThroughPassthrough() {
    let capabilities = Self.decide(
      [Self.tmuxDA1, .version("WezTerm 20240203"), .primaryDeviceAttributes([65, 4])],
      tmux: Self.tmux("WezTerm 20240203"))
    #expect(capabilities.graphics == .iterm2)
    #expect(capabilities.passthrough)
    #expect(capabilities.alsoClaimed.contains(.sixel))
  }

  /// Passthrough off: nothing can reach the outer terminal; half blocks, and the line that
  /// would fix it, never invisible images.
  @Test func passthroughOffGivesBlocksAndTheFix() {
    for outer in ["kitty(0.26.5)", "XTerm(379)"] {
      let capabilities = Self.decide(
        [Self.tmuxDA1], tmux: Self.tmux(outer, passthrough: false))
      #expect(capabilities.graphics == .blocks, "\(outer)")
      #expect(!capabilities.passthrough, "\(outer)")
      #expect(capabilities.advice == [TerminalCapabilities.passthroughAdvice], "\(outer)")
    }
    // An outer terminal with no image protocol needs no advice.
    let linux = Self.decide([Self.tmuxDA1], tmux: Self.tmux("linux", passthrough: false))
    #expect(linux.graphics == .blocks && linux.advice.isEmpty)
  }

  /// Without tmux's answers a stray kitty OK (tmux's, not the outer terminal's) decides
  /// nothing; KITTY_WINDOW_ID still means kitty, as before.
  @Test func withoutTmuxsAnswersOnlyTheEnvironmentSpeaks() {
    let stray = Self.decide([.kittyGraphics(imageID: 31, message: "OK")], tmux: nil)
    #expect(stray.graphics == .blocks)
    var environment = Self.environment
    environment["KITTY_WINDOW_ID"] = "1"
    let kitty = Self.decide([], tmux: nil, environment: environment)
    #expect(kitty.graphics == .kitty && kitty.kittyPlaceholders && kitty.passthrough)
  }

  @Test func anOverrideInsideTmuxStillGoesThroughPassthrough() {
    let capabilities = Self.decide(
      [Self.tmuxDA1], tmux: Self.tmux("XTerm(379)"), override: .sixel)
    #expect(capabilities.graphics == .sixel && capabilities.passthrough)
    let blocks = Self.decide([Self.tmuxDA1], tmux: Self.tmux("XTerm(379)"), override: .blocks)
    #expect(!blocks.passthrough)
  }

  @Test func iTerm2ByNameOutsideTmux() {
    for environment in [
      ["TERM_PROGRAM": "iTerm.app"], ["LC_TERMINAL": "iTerm2"], ["TERM_PROGRAM": "vscode"],
      ["TERM_PROGRAM": "WezTerm"], ["WEZTERM_EXECUTABLE": "/usr/bin/wezterm-gui"],
    ] {
      // WezTerm answers the kitty query too: its iTerm2 images are still chosen.
      let capabilities = TerminalCapabilities.decide(
        environment: environment,
        replies: [.kittyGraphics(imageID: 31, message: "OK"), .primaryDeviceAttributes([65, 4])])
      #expect(capabilities.graphics == .iterm2, "\(environment)")
      #expect(Set(capabilities.alsoClaimed) == [.kitty, .sixel], "\(environment)")
    }
  }

  /// Inside tmux with passthrough the outer terminal's questions are wrapped (a bare kitty
  /// query would become tmux's window title) and two DA1 answers close the probe; without
  /// passthrough no kitty query is sent at all.
  @Test func theProbeInsideTmux() throws {
    let wrapped = CapabilityProbe.query(insideTmux: true, passthrough: true)
    let wire = try TmuxWire(wrapped)
    #expect(!TmuxWire.contains(wire.pane, Array("\u{1B}_G".utf8)))
    #expect(TmuxWire.contains(wire.passedThrough, Array("\u{1B}_Gi=31".utf8)))
    #expect(TmuxWire.contains(wire.passedThrough, Array("\u{1B}[>0q".utf8)))
    #expect(TmuxWire.contains(wire.pane, Array("\u{1B}[c".utf8)))
    #expect(CapabilityProbe.expectedDeviceAttributes(insideTmux: true, passthrough: true) == 2)
    #expect(!CapabilityProbe.isComplete([Self.tmuxDA1], expecting: 2))
    #expect(
      CapabilityProbe.isComplete([Self.tmuxDA1, .primaryDeviceAttributes([62])], expecting: 2))
    let closed = CapabilityProbe.query(insideTmux: true, passthrough: false)
    #expect(!TmuxWire.contains(closed, Array("\u{1B}_G".utf8)))
    #expect(!TmuxWire.contains(closed, Array("\u{1B}Ptmux;".utf8)))
    #expect(String(decoding: closed, as: UTF8.self).hasSuffix("\u{1B}[c"))
  }
}
