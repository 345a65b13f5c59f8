import Foundation
import TesseraTestSupport
import TesseraUtilities
import Testing

@testable import TesseraBench

extension LinkModelGalleries {
  /// Issue 34, item 3: a fling over SSH at 2 Mbit/s + 40 ms, with sshd's window of buffered
  /// bytes between the gallery and xterm (sixel), while the first screen's images still arrive.
  /// xterm once settled after such a fling with strips of pictures from the screens scrolled
  /// past and a copy of the status bar among the tiles. Once the link is quiet, the screen must
  /// hold one status bar, one picture per tile it counts, and each picture must be its own
  /// photo's: every photo has a colour of its own, and the model terminal decodes each sixel
  /// image into the colour of every cell it paints.
  @Suite(.timeLimit(.minutes(3))) struct SlowLinkFlingTests {
    static let photoCount = 48

    /// Photo `index`'s colour: four levels a channel, 64 colours at least 70 apart.
    static func colour(of index: Int) -> (red: Int, green: Int, blue: Int) {
      let levels = [40, 110, 180, 250]
      return (levels[index % 4], levels[index / 4 % 4], levels[index / 16 % 4])
    }

    /// A photo of `colour` under a grain of ±24 a channel (seeded): sixel strings of tens of kB
    /// a tile, so the fling comes while the link is full.
    static func photo(_ index: Int, width: Int, height: Int) throws -> Data {
      var random = SplitMix64(seed: 34, UInt64(index))
      let base = colour(of: index)
      var pixels = [UInt8](repeating: 255, count: width * height * 4)
      for pixel in 0..<(width * height) {
        for (channel, value) in [base.red, base.green, base.blue].enumerated() {
          pixels[pixel * 4 + channel] = UInt8(
            clamping: value + Int(random.next() % 49) - 24)
        }
      }
      return try TestImages.encode(pixels, width: width, height: height, as: ".jpg[Q=90]")
    }

    /// The photo whose colour `cell` (``ModelTerminal/sixelColours``) is nearest, if within
    /// `tolerance` on every channel.
    static func photo(showing cell: UInt32, tolerance: Int = 30) -> Int? {
      let seen = (red: Int(cell >> 16 & 0xFF), green: Int(cell >> 8 & 0xFF), blue: Int(cell & 0xFF))
      return (0..<photoCount).first { index in
        let expected = colour(of: index)
        return abs(expected.red - seen.red) <= tolerance
          && abs(expected.green - seen.green) <= tolerance
          && abs(expected.blue - seen.blue) <= tolerance
      }
    }

    @Test func aFlingWhileImagesArriveSettlesOnEveryTilesOwnPictureAndOneStatusBar() async throws {
      let folder = TemporaryFolder.Owned(prefix: "tessera-slow-link-fling")
      let photos = folder.url.appendingPathComponent("photos")
      try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
      let names = (0..<Self.photoCount).map { String(format: "p%02d.jpg", $0) }
      for (index, name) in names.enumerated() {
        try Self.photo(index, width: 480, height: 320).write(
          to: photos.appendingPathComponent(name))
      }
      var terminal = ModelTerminal(
        flavour: .xterm, columns: 120, rows: 36, cellWidth: 10, cellHeight: 20)
      terminal.recordsSixelColours = true
      let session = try LinkSession(
        arguments: [GalleryBinary.path, photos.path],
        environment: SlowLinkGalleryTests.remote(term: "xterm-256color", in: folder),
        terminal: terminal, bytesPerSecond: 250_000, delay: 0.04, bufferLimit: 2 << 20,
        errorLog: folder.url.appendingPathComponent("stderr").path)
      defer { session.stop() }

      #expect(
        await session.pumpOffThePool(until: { $0.pictures >= 2 }, timeout: 60),
        "no picture arrived:\n\(session.terminal.text)")
      let tilesBefore = session.pictures
      let firstScreen = Set(names.indices.filter { session.terminal.text.contains(names[$0]) })
      for _ in 0..<5 {
        session.type("\u{1B}[6~")
        await session.pumpOffThePool(until: { _ in false }, timeout: 0.05)
      }
      let settled = await session.pumpOffThePool(
        until: { $0.linkIsIdle && $0.now - $0.lastProgramOutput >= 1.5 }, timeout: 150)
      let screen = session.terminal
      #expect(settled, "the fling did not settle; \(session.bytesArrived) bytes arrived")

      let bars = (0..<screen.rows).filter { screen.line($0).contains(" of \(Self.photoCount)") }
      #expect(bars.count == 1, "rows reading like the status bar: \(bars)\n\(screen.text)")
      guard let bar = bars.first.map(screen.line),
        let visible = LinkRun.visibleCount(inStatusBar: bar)
      else {
        Issue.record("no count of visible tiles in the status bar:\n\(screen.text)")
        return
      }
      // The fling moved on while the first screen's images were still arriving.
      #expect(tilesBefore < visible, "every tile was pictured before the fling: \(tilesBefore)")
      let captioned = Set(names.indices.filter { screen.text.contains(names[$0]) })
      #expect(
        !firstScreen.isEmpty && captioned.isDisjoint(with: firstScreen),
        "the fling did not leave the first screen (\(firstScreen.sorted())):\n\(screen.text)")

      let regions = screen.sixelRegionCells
      #expect(
        regions.count == visible,
        "\(regions.count) pictures on screen for \(visible) tiles:\n\(screen.text)")
      var shown: [Int] = []
      for (number, cells) in regions.enumerated() {
        let coloured = cells.map { screen.sixelColours[$0] }.filter { $0 != 0 }
        // A colour no photo has counts as nil: a picture of one photo has exactly one owner.
        let owners = Set(coloured.map { Self.photo(showing: $0) })
        let owner = owners.count == 1 ? owners.first ?? nil : nil
        let at = cells.prefix(3).map { "(\($0 % screen.columns),\($0 / screen.columns))" }
        #expect(
          owner != nil,
          "picture \(number) at \(at.joined()) shows photos \(owners.map { $0.map(String.init) ?? "?" }) in \(coloured.count) of \(cells.count) cells"
        )
        if let owner { shown.append(owner) }
      }
      // Each picture is of a photo whose caption is on screen, and no photo is shown twice.
      #expect(
        Set(shown).isSubset(of: captioned) && Set(shown).count == shown.count,
        "pictures of photos \(shown.sorted()); captions of \(captioned.sorted())\n\(screen.text)")
    }
  }
}
