import Foundation
import Testing

/// The gallery as a person uses it: tmux runs `tessera gallery` against its embedded server
/// (real HTTP on 127.0.0.1, real libvips decoding, latency with a long tail), keys go in,
/// and the captured screen must show every tile with its own item's image — the server's id
/// marker, read back from the pixels — never another item's.
@Suite(.serialized, .timeLimit(.minutes(5)))
struct GalleryEndToEndTests {
  static let columns = 120
  static let rows = 40

  static func launch(_ arguments: [String] = [], items: Int = 400) throws -> Tmux {
    try Tmux(
      command: [
        GalleryBinary.path, "gallery", "--graphics", "blocks", "--no-disk-cache",
        "--items", String(items), "--latency", "longtail:40ms,0.8",
      ] + arguments,
      columns: columns, rows: rows)
  }

  /// True once the status bar says nothing is loading and no tile waits for its image.
  static func settled(_ capture: String) -> Bool {
    let plain = Tmux.plain(capture)
    return plain.contains("⟳ 0 in flight") && !plain.contains("loading")
      && plain.contains("✓ ") && !plain.contains("…")
  }

  /// Every tile fully on screen shows its own image; at least `minimum` of them were checked.
  static func expectEveryTileCorrect(
    _ capture: String, _ layout: TileReader.Layout, minimum: Int,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let tiles = TileReader(capture).tiles(layout)
    let wrong = tiles.filter { $0.markerID != nil && !$0.showsOwnImage }
    #expect(wrong.isEmpty, "wrong images: \(wrong)", sourceLocation: sourceLocation)
    let shown = tiles.filter(\.showsOwnImage)
    #expect(
      shown.count >= minimum, "only \(shown.count) of \(tiles.count) tiles show their image",
      sourceLocation: sourceLocation)
  }

  @Test func gridShowsEachTilesOwnImageThroughFastScrolling() throws {
    let tmux = try Self.launch()
    let first = try tmux.waitFor("the first screen of images", Self.settled)
    Self.expectEveryTileCorrect(first, .tiles, minimum: 8)

    // A fast scroll: pages and arrow presses in a burst, screens captured while images are
    // still on their way. A tile may show its placeholder, never another item's image.
    try tmux.send("PageDown", "PageDown", "j", "j", "j", "j", "PageDown", "j", "j")
    for _ in 0..<10 {
      guard let during = try tmux.stableCapture(attempts: 3) else { continue }
      let wrong = TileReader(during).tiles(.tiles).filter {
        $0.markerID != nil && !$0.showsOwnImage
      }
      #expect(wrong.isEmpty, "wrong images mid-scroll: \(wrong)")
    }
    let after = try tmux.waitFor("images after the fling") {
      Self.settled($0) && (TileReader($0).captions.first?.id ?? 0) > 20
    }
    // Mid-content a row may be cut at each edge: at least one whole row of four remains.
    Self.expectEveryTileCorrect(after, .tiles, minimum: 4)
  }

  @Test func layoutSwitchesKeepTheTopItemAndEveryImageOnItsItem() throws {
    let tmux = try Self.launch()
    try tmux.waitFor("the grid", Self.settled)
    try tmux.send("j", "j", "j", "j", "j", "j")
    let grid = try tmux.waitFor("the scrolled grid", Self.settled)
    let topInGrid = try #require(TileReader(grid).captions.first?.id)

    try tmux.send("L")
    let list = try tmux.waitFor("the list") {
      Tmux.plain($0).contains(" list ") && Self.settled($0)
    }
    Self.expectEveryTileCorrect(list, .list, minimum: 2)
    let topInList = try #require(TileReader(list).captions.first?.id)
    // The list starts at the grid's top item, or within the grid row the screen cut.
    #expect(abs(topInList - topInGrid) <= 4, "grid top #\(topInGrid), list top #\(topInList)")

    try tmux.send("L")
    let waterfall = try tmux.waitFor("the waterfall") {
      Tmux.plain($0).contains("waterfall") && Self.settled($0)
    }
    Self.expectEveryTileCorrect(waterfall, .tiles, minimum: 4)

    try tmux.send("L", "+")
    let fiveColumns = try tmux.waitFor("five columns") {
      Tmux.plain($0).contains("5 cols") && Self.settled($0)
    }
    Self.expectEveryTileCorrect(fiveColumns, .tiles, minimum: 10)
  }

  @Test func resizeRelaysOutWithEveryImageOnItsItem() throws {
    let tmux = try Self.launch()
    try tmux.waitFor("the grid", Self.settled)
    try tmux.resize(columns: 90, rows: 30)
    let smaller = try tmux.waitFor("the smaller grid") { capture in
      let lines = Tmux.plain(capture).split(separator: "\n", omittingEmptySubsequences: false)
      return lines.count <= 31 && Self.settled(capture)
    }
    Self.expectEveryTileCorrect(smaller, .tiles, minimum: 3)
    try tmux.resize(columns: 140, rows: 45)
    let larger = try tmux.waitFor("the larger grid", Self.settled)
    Self.expectEveryTileCorrect(larger, .tiles, minimum: 4)
  }

  @Test func failedImagesShowWhyAndRefreshRetriesThem() throws {
    let tmux = try Self.launch(["--failure-rate", "0.35"])
    let failing = try tmux.waitFor("failures on screen") { capture in
      Tmux.plain(capture).contains("⟳ 0 in flight") && Tmux.plain(capture).contains("✗ ")
        && !Tmux.plain(capture).contains("✗ 0 failed")
    }
    // A failed tile says why; the others still show their own image.
    let plain = Tmux.plain(failing)
    #expect(
      plain.contains("server answered") || plain.contains("network") || plain.contains("HTTP"),
      "a failure reason is shown")
    let wrongBefore = TileReader(failing).tiles(.tiles).filter {
      $0.markerID != nil && !$0.showsOwnImage
    }
    #expect(wrongBefore.isEmpty, "wrong images: \(wrongBefore)")

    try tmux.send("r")
    let refreshed = try tmux.waitFor("the refreshed screen") { capture in
      Tmux.plain(capture).contains("⟳ 0 in flight") && !Tmux.plain(capture).contains("loading")
    }
    let tiles = TileReader(refreshed).tiles(.tiles)
    #expect(tiles.allSatisfy { $0.markerID == nil || $0.showsOwnImage }, "\(tiles)")
    #expect(tiles.contains { $0.showsOwnImage })
  }

  // The scripts end in `exec sleep`: a pane whose program has exited is shown by tmux 3.3
  // (remain-on-exit) with its cursor hidden and its top line scrolled away, which would read
  // as a gallery that left the terminal broken. The sleep is stopped with the tmux server.
  @Test func quittingRestoresTheTerminal() throws {
    let script =
      "\(Tmux.quote(GalleryBinary.path)) gallery --graphics blocks --no-disk-cache --items 50; "
      + "echo \"exit=$?\"; stty -a | tr ' ' '\\n' | grep -E '^-?(icanon|echo)$' | tr '\\n' ' '; "
      + "echo; echo stty-done; exec sleep 600"
    let tmux = try Tmux(command: ["sh", "-c", script], columns: 100, rows: 30)
    try tmux.waitFor("the gallery") { Tmux.plain($0).contains("Tessera") }
    #expect(try tmux.paneValue("alternate_on") == "1")
    try tmux.send("q")
    let after = try tmux.waitFor("the shell again", timeout: .seconds(30)) {
      Tmux.plain($0).contains("stty-done")
    }
    let plain = Tmux.plain(after)
    #expect(plain.contains("exit=0"))
    #expect(plain.contains("icanon") && !plain.contains("-icanon"), "canonical mode is back")
    #expect(plain.contains("echo") && !plain.contains("-echo "), "echo is back")
    #expect(try tmux.paneValue("alternate_on") == "0")
    #expect(try tmux.paneValue("cursor_flag") == "1")
  }

  @Test func deadFeedShowsTheReasonAndDoesNotCrash() throws {
    // Port 9 (discard) has nothing listening on loopback: the connection is refused.
    let script =
      "\(Tmux.quote(GalleryBinary.path)) gallery --graphics blocks --no-disk-cache "
      + "--feed http://127.0.0.1:9/services/feeds/photos_public.gne; echo \"exit=$?\"; exec sleep 600"
    let tmux = try Tmux(command: ["sh", "-c", script], columns: 100, rows: 30)
    let failed = try tmux.waitFor("the error") {
      Tmux.plain($0).contains("Can't retrieve photos")
    }
    #expect(Tmux.plain(failed).contains("Press r to retry"))
    try tmux.send("r")
    try tmux.waitFor("the error again") { Tmux.plain($0).contains("Can't retrieve photos") }
    #expect(!Tmux.plain(try tmux.capture()).contains("exit="), "still running")
    try tmux.send("q")
    let after = try tmux.waitFor("the exit", timeout: .seconds(20)) {
      Tmux.plain($0).contains("exit=")
    }
    #expect(Tmux.plain(after).contains("exit=0"))
  }
}
