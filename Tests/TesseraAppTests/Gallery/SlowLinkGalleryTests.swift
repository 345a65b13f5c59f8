import Foundation
import TesseraTestSupport
import Testing

@testable import TesseraBench

extension LinkModelGalleries {
  /// The gallery over SSH to kitty, through `tessera bench link`'s link and model terminal
  /// (issue 34, item 2): each tile of the first screen comes as a preview, then at full detail;
  /// a key is answered while images are on their way; `q`
  /// quits. What arrives and in which order is checked, never how long it took.
  @Suite(.timeLimit(.minutes(2))) struct SlowLinkGalleryTests {
    /// Eight photos in a folder of `folder`, the gallery on them over SSH to `terminal`.
    static func launch(
      _ folder: TemporaryFolder.Owned, terminal: ModelTerminal, term: String
    ) throws -> LinkSession {
      let photos = folder.url.appendingPathComponent("photos")
      try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
      for index in 0..<8 {
        let jpeg = TestImages.gradient(
          width: 800, height: 600, as: ".jpg[Q=90]", blue: UInt8(index * 30))
        try jpeg.write(to: photos.appendingPathComponent("photo-\(index).jpg"))
      }
      return try LinkSession(
        arguments: [GalleryBinary.path, photos.path], environment: remote(term: term, in: folder),
        terminal: terminal, bytesPerSecond: 2.5e6, delay: 0.01, bufferLimit: 2 << 20,
        errorLog: folder.url.appendingPathComponent("stderr").path)
    }

    /// This process's environment as a remote shell's in `term`, with a cache in `folder`.
    static func remote(term: String, in folder: TemporaryFolder.Owned) -> [String: String] {
      var environment = ProcessInfo.processInfo.environment
      for name in ["TMUX", "TMUX_PANE", "VIPSHOME", "KITTY_WINDOW_ID", "TERM_PROGRAM"] {
        environment[name] = nil
      }
      environment["TERM"] = term
      environment["SSH_CONNECTION"] = "127.0.0.1 50000 127.0.0.1 22"
      environment["XDG_CACHE_HOME"] = folder.url.appendingPathComponent("cache").path
      return environment
    }

    /// `?` opens the help card while images may still be on their way, and `q` quits.
    static func expectKeysAnswered(_ session: LinkSession) async {
      session.type("?")
      #expect(
        await session.pumpOffThePool(
          until: { $0.terminal.text.contains("this help, quit") }, timeout: 10),
        "no help card:\n\(session.terminal.text)")
      session.type("?q")
      #expect(await session.pumpOffThePool(until: { $0.exited }, timeout: 10), "q did not quit")
    }

    @Test func theFirstScreenIsPicturedByPreviewsThenFullDetail() async throws {
      let folder = TemporaryFolder.Owned(prefix: "tessera-slow-link")
      let session = try Self.launch(
        folder,
        terminal: ModelTerminal(
          flavour: .kitty, columns: 100, rows: 30, cellWidth: 10, cellHeight: 20),
        term: "xterm-kitty")
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
      let arrived = await session.pumpOffThePool(
        until: { settled($0.terminal) != nil }, timeout: 60)
      #expect(
        arrived,
        "\(session.pictures) tiles pictured; uploads (image, width): \(session.terminal.uploads); shown widths \(session.terminal.shownWidths)\n\(session.terminal.text)"
      )
      // kitty before 0.38.1 drops a load a free interrupts (the model does too): frees wait for
      // the transfer's end.
      #expect(session.terminal.loadsDropped == 0)

      await Self.expectKeysAnswered(session)
    }

    /// Over SSH to xterm (sixel), every tile's first pixels are a coarse preview (a few bytes a
    /// cell) and, once the screen settles, every pictured cell shows full detail: the preview is
    /// never left, and no tile waited for another's full detail to show a picture.
    @Test func sixelTilesArePicturedByPreviewsThenFullDetail() async throws {
      let folder = TemporaryFolder.Owned(prefix: "tessera-slow-link-sixel")
      let session = try Self.launch(
        folder,
        terminal: ModelTerminal(
          flavour: .xterm, columns: 100, rows: 30, cellWidth: 10, cellHeight: 20),
        term: "xterm-256color")
      defer { session.stop() }

      // Settled: at least four tiles pictured, and every pictured cell at more than twice the
      // bytes a cell of the first picture it showed (these smooth gradients cost about 55 bytes
      // a cell at full detail, their previews 8 to 20).
      func settled(_ terminal: ModelTerminal) -> Bool {
        let pictured = terminal.sixelDensity.indices.filter { terminal.sixelDensity[$0] > 0 }
        return terminal.pictures >= 4 && !pictured.isEmpty
          && pictured.allSatisfy { terminal.sixelDensity[$0] > 2 * terminal.firstSixelDensity[$0] }
      }
      let arrived = await session.pumpOffThePool(until: { settled($0.terminal) }, timeout: 60)
      let terminal = session.terminal
      let firsts = Set(terminal.firstSixelDensity.filter { $0 > 0 }).sorted()
      let nows = Set(terminal.sixelDensity.filter { $0 > 0 }).sorted()
      #expect(
        arrived,
        "\(terminal.pictures) tiles pictured; first bytes a cell \(firsts), now \(nows)\n\(terminal.text)"
      )
      await Self.expectKeysAnswered(session)
    }
  }
}
