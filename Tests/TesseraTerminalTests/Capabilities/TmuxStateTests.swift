import Testing

@testable import TesseraTerminal

/// tmux's answers as `TmuxState.query` reads them: the lines below are what Debian 12's tmux
/// 3.3a printed for the query's commands inside kitty 0.26.5 and xterm 379 under Xvfb.
@Suite struct TmuxStateTests {
  static let kitty = "3.3a\tkitty(0.26.5)\txterm-kitty\t0\t0\non\noff\n"
  static let xterm = "3.3a\tXTerm(379)\txterm\t41\t3\noff\non\n"

  @Test func readsTmuxsAnswersInsideKittyAndXterm() throws {
    let kitty = try #require(TmuxState.parse(Self.kitty))
    #expect(kitty.version == [3, 3])
    #expect(kitty.passthrough)
    #expect(!kitty.focusEvents)
    #expect(kitty.outerTerminal == "kitty(0.26.5)")
    #expect(kitty.outerTermName == "xterm-kitty")
    #expect(kitty.paneOrigin == CellPoint(x: 0, y: 0))
    let xterm = try #require(TmuxState.parse(Self.xterm))
    #expect(!xterm.passthrough)
    #expect(xterm.focusEvents)
    #expect(xterm.paneOrigin == CellPoint(x: 41, y: 3))
    // tmux 3.4's `all` lets invisible panes through too: passthrough all the same.
    #expect(TmuxState.parse("3.4\t\t\t0\t0\nall\noff")?.passthrough == true)
  }

  @Test func anythingElseIsNotTmux() {
    #expect(TmuxState.parse("") == nil)
    #expect(TmuxState.parse("no server running on /tmp/tmux-0/default") == nil)
    #expect(TmuxState.parse("x\ty\tz\t1\t2\non") == nil)  // no version number
    #expect(TmuxState.parse("3.3a\tkitty\t0\t0\non") == nil)  // a field missing
  }

  /// tmux is outside input: a pane position past any screen is clamped, never trusted.
  @Test func numbersAreClamped() throws {
    let state = try #require(
      TmuxState.parse("3.3a\t\t\t99999999999999999999999\t-5\non\non"))
    #expect(state.paneOrigin.x == TerminalLimits.maximumColumns)
    #expect(state.paneOrigin.y == 0)
  }

  @Test func versionNumbers() {
    #expect(TmuxState.versionNumbers("kitty(0.26.5)") == [0, 26, 5])
    #expect(TmuxState.versionNumbers("3.3a") == [3, 3])
    #expect(TmuxState.versionNumbers("next-3.5") == [3, 5])
    #expect(TmuxState.versionNumbers("XTerm(379)") == [379])
    #expect(TmuxState.versionNumbers("WezTerm 20240203-110809-5046fc22") == [20_240_203])
    #expect(TmuxState.versionNumbers("1.2.3.4.5.6") == [1, 2, 3, 4])
    #expect(TmuxState.versionNumbers("none") == [])
    #expect(TmuxState.versionNumbers(String(repeating: "9", count: 40)) == [1_000_000_000])
  }

  /// Outside tmux nothing is asked; inside, a tmux that cannot be reached answers nil.
  @Test func queryNeedsTmux() {
    #expect(TmuxState.query(environment: [:]) == nil)
    #expect(
      TmuxState.query(environment: ["TMUX": "/nonexistent/tessera-no-tmux,1,0", "PATH": "/"])
        == nil)
  }
}
