import TesseraTerminal
import TesseraTestSupport
import Testing

@testable import TesseraGallery

/// The help card occludes images, Ctrl-L asks for a full redraw, and `tessera doctor` says
/// what was found, why, and what would fix it.
@MainActor
@Suite(.timeLimit(.minutes(1)))
struct OverlayRedrawDoctorTests {
  @Test func theHelpCardIsAnOccluderAndCtrlLRedraws() {
    let (screen, _) = LocalGalleryTests().makeScreen(ControlledWalker())
    #expect(screen.compose(framesPerSecond: 0, spinner: 0).occluders.isEmpty)
    #expect(screen.handle(.key(.character("?"))) == .none)
    let frame = screen.compose(framesPerSecond: 0, spinner: 0)
    let box = HelpOverlay.rect(width: screen.width, height: screen.height)
    #expect(box != nil)
    #expect(frame.occluders == box.map { [$0] })
    let rows = (0..<frame.buffer.height).map { frame.buffer.text(ofRow: $0) }
    #expect(rows.contains { $0.contains("Ctrl-L") && $0.contains("redraw the screen") })
    #expect(screen.handle(.key(.control("l"))) == .redraw)
    #expect(screen.needsDisplay)
    // Closed, nothing occludes any more.
    _ = screen.handle(.key(.escape))
    #expect(screen.compose(framesPerSecond: 0, spinner: 0).occluders.isEmpty)
  }

  @Test func theDoctorSaysWhyAndWhatWouldFixIt() {
    let tmux = TmuxState(
      version: [3, 3], passthrough: false, focusEvents: false, outerTerminal: "kitty(0.26.5)")
    let capabilities = TerminalCapabilities.decide(
      environment: ["TMUX": "/tmp/tmux-0/default,1,0"],
      replies: [.primaryDeviceAttributes([1, 2])], tmux: tmux)
    let report = TerminalDoctor.report(capabilities, environment: ["SSH_CONNECTION": "1 2 3 4"])
    #expect(report.contains { $0.hasPrefix("over SSH") && $0.hasSuffix("yes") })
    #expect(report.contains { $0.contains("3.3, passthrough off, focus events off") })
    #expect(report.contains { $0.contains("blocks") })
    #expect(report.contains { $0.contains("allow-passthrough off") })
    #expect(report.contains { $0.contains("set -g allow-passthrough on") })
    #expect(TerminalDoctor.claimed(by: capabilities) == [.blocks])

    let kitty = TerminalCapabilities.decide(
      environment: ["TERM": "xterm-kitty"],
      replies: [
        .kittyGraphics(imageID: 31, message: "OK"), .primaryDeviceAttributes([62, 4]),
        .cellPixelSize(PixelSize(width: 9, height: 18)),
      ])
    let kittyReport = TerminalDoctor.report(kitty, environment: [:])
    #expect(kittyReport.contains { $0.contains("9×18 px, from the terminal's answer to CSI 16 t") })
    #expect(kittyReport.contains { $0.hasPrefix("tmux") && $0.hasSuffix("no") })
    #expect(!kittyReport.contains { $0.hasPrefix("to fix") })
    #expect(TerminalDoctor.claimed(by: kitty) == [.kitty, .sixel, .blocks])
  }

  /// The test picture's diagonal shows a stretch; it is the size asked.
  @Test func theTestPictureIsTheSizeAsked() throws {
    let bitmap = try TerminalDoctor.testBitmap(width: 120, height: 60)
    #expect(bitmap.width == 120 && bitmap.height == 60)
    #expect(Array(bitmap.pixels[0..<3]) == [255, 255, 255])  // the diagonal's start
  }
}
