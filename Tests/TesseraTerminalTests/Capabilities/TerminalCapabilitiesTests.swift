import Testing

@testable import TesseraTerminal

@Suite struct TerminalCapabilitiesTests {
  static func decide(
    _ environment: [String: String], _ replies: [TerminalReply] = [],
    override: GraphicsProtocol? = nil
  ) -> TerminalCapabilities {
    TerminalCapabilities.decide(environment: environment, replies: replies, override: override)
  }

  @Test func kittyByQueryEnvironmentOrVersion() {
    #expect(Self.decide([:], [.kittyGraphics(imageID: 31, message: "OK")]).graphics == .kitty)
    #expect(Self.decide(["KITTY_WINDOW_ID": "1"]).graphics == .kitty)
    #expect(Self.decide(["TERM": "xterm-kitty"]).graphics == .kitty)
    #expect(Self.decide(["TERM_PROGRAM": "konsole"]).graphics == .kitty)
    #expect(Self.decide([:], [.version("ghostty 1.1")]).graphics == .kitty)
    #expect(
      Self.decide([:], [.kittyGraphics(imageID: 31, message: "EINVAL")]).graphics == .blocks)
  }

  @Test func sixelByTheDA1Attribute() {
    #expect(Self.decide([:], [.primaryDeviceAttributes([62, 4, 22])]).graphics == .sixel)
    #expect(Self.decide([:], [.primaryDeviceAttributes([4])]).graphics == .blocks)
    #expect(Self.decide([:], [.primaryDeviceAttributes([62, 22])]).graphics == .blocks)
  }

  @Test func insideTmux() {
    let tmux = ["TMUX": "/tmp/tmux-0/default,1,0", "TERM": "tmux-256color"]
    #expect(Self.decide(tmux).graphics == .blocks)
    #expect(Self.decide(tmux).insideTmux)
    var fromKitty = tmux
    fromKitty["KITTY_WINDOW_ID"] = "3"
    #expect(Self.decide(fromKitty).graphics == .kitty)
    #expect(Self.decide(tmux, [.primaryDeviceAttributes([61, 4])]).graphics == .sixel)
    // tmux answers the kitty query for nobody: a stray OK must not pick kitty unless the
    // outer terminal is known to be kitty.
    #expect(Self.decide(tmux, [.kittyGraphics(imageID: 31, message: "OK")]).graphics == .blocks)
  }

  @Test func theOverrideWins() {
    #expect(Self.decide(["KITTY_WINDOW_ID": "1"], override: .blocks).graphics == .blocks)
    #expect(Self.decide([:], override: .sixel).graphics == .sixel)
  }

  @Test func modesAndCellSize() {
    let capabilities = Self.decide(
      [:],
      [
        .modeReport(mode: 2026, state: 2), .modeReport(mode: 2048, state: 0),
        .cellPixelSize(PixelSize(width: 9, height: 18)),
      ])
    #expect(capabilities.synchronizedOutput)
    #expect(!capabilities.inBandResize)
    #expect(capabilities.cellPixelSize == PixelSize(width: 9, height: 18))
    let fromWindow = TerminalCapabilities.decide(
      environment: [:], replies: [],
      windowSize: TerminalSize(columns: 100, rows: 50, pixelWidth: 800, pixelHeight: 800))
    #expect(fromWindow.cellPixelSize == PixelSize(width: 8, height: 16))
  }

  @Test func theProbeEndsWithDA1AndIsCompleteOnItsReply() {
    #expect(String(decoding: CapabilityProbe.query(), as: UTF8.self).hasSuffix("\u{1B}[c"))
    #expect(!CapabilityProbe.isComplete([.version("x")]))
    #expect(CapabilityProbe.isComplete([.version("x"), .primaryDeviceAttributes([1])]))
  }
}
