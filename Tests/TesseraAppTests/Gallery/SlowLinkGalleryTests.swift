import Foundation
import TesseraTestSupport
import Testing

@testable import TesseraBench

/// The gallery over SSH to kitty, through `tessera bench link`'s link and model terminal
/// (issue 34, item 2): each tile of the first screen comes as a preview, then at full detail;
/// a key is answered while images are on their way; `q`
/// quits. What arrives and in which order is checked, never how long it took.
@Suite(.timeLimit(.minutes(2))) struct SlowLinkGalleryTests {
  @Test func theFirstScreenIsPicturedByPreviewsThenFullDetail() throws {
    let folder = TemporaryFolder.Owned(prefix: "tessera-slow-link")
    let photos = folder.url.appendingPathComponent("photos")
    try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
    for index in 0..<8 {
      let jpeg = TestImages.gradient(
        width: 800, height: 600, as: ".jpg[Q=90]", blue: UInt8(index * 30))
      try jpeg.write(to: photos.appendingPathComponent("photo-\(index).jpg"))
    }
    var environment = ProcessInfo.processInfo.environment
    for name in ["TMUX", "TMUX_PANE", "VIPSHOME", "KITTY_WINDOW_ID", "TERM_PROGRAM"] {
      environment[name] = nil
    }
    environment["TERM"] = "xterm-kitty"
    environment["SSH_CONNECTION"] = "127.0.0.1 50000 127.0.0.1 22"
    environment["XDG_CACHE_HOME"] = folder.url.appendingPathComponent("cache").path
    let session = try LinkSession(
      arguments: [GalleryBinary.path, photos.path], environment: environment,
      terminal: ModelTerminal(
        flavour: .kitty, columns: 100, rows: 30, cellWidth: 10, cellHeight: 20),
      bytesPerSecond: 2.5e6, delay: 0.01, bufferLimit: 2 << 20,
      errorLog: folder.url.appendingPathComponent("stderr").path)
    defer { session.stop() }

    // Every tile shows a preview first (an upload a third of the width) and ends at full
    // detail (under an id of its own, so the preview stays until it is whole): waited for as
    // what arrives, not as quiet on the link. (Which tiles' previews precede which full
    // uploads depends on when each photo was decoded: the policy holds full detail back only
    // while a decoded tile on screen has nothing; `KittyAspectTests` checks that.)
    func settled(_ terminal: ModelTerminal) -> (previews: Int, shown: [Int])? {
      let widths = terminal.uploads.map(\.width)
      guard let widest = widths.max(), terminal.pictures >= 4 else { return nil }
      let previews = widths.filter { $0 * 2 < widest }.count
      let shown = terminal.shownWidths
      guard previews >= terminal.pictures, shown.allSatisfy({ $0 * 2 >= widest }) else {
        return nil
      }
      return (previews, shown)
    }
    let arrived = session.pump(until: { settled($0.terminal) != nil }, timeout: 60)
    #expect(
      arrived,
      "\(session.pictures) tiles pictured; uploads (image, width): \(session.terminal.uploads); shown widths \(session.terminal.shownWidths)\n\(session.terminal.text)"
    )

    session.type("?")
    #expect(
      session.pump(until: { $0.terminal.text.contains("this help, quit") }, timeout: 10),
      "no help card:\n\(session.terminal.text)")
    session.type("?q")
    #expect(session.pump(until: { $0.exited }, timeout: 10), "q did not quit")
  }
}
