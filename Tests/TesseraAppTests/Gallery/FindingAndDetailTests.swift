import Foundation
import TesseraCollection
import TesseraPhotoLibrary
import TesseraTerminal
import TesseraTestSupport
import TesseraUtilities
import Testing

@testable import TesseraGallery

/// Finding (`/`, `n`/`N`, `t`, the position marker) and the detail view's keys (zoom, pan,
/// neighbours, the slideshow), headless: keys in, frames read as text; time is given.
@MainActor
@Suite(.inProcessScreen)
struct FindingAndDetailTests {
  let local = LocalGalleryTests()

  /// 6 June, 3 May and `april` April photos, walked and dated.
  func screen(april: Int = 3) async -> GalleryScreen {
    let walker = ControlledWalker()
    let (screen, library) = local.makeScreen(walker)
    let walk = Task { await screen.start() }
    let files =
      (1...6).map { LocalGalleryTests.file("june-\($0).jpg", "2024:06:0\($0) 12:00:00") }
      + (1...3).map { LocalGalleryTests.file("may-\($0).jpg", "2024:05:0\($0) 12:00:00") }
      + (1...april).map {
        LocalGalleryTests.file("april-\($0).jpg", "2024:04:\(10 + $0 % 18) 12:00:00")
      }
    walker.release(WalkBatch(files: files, foldersWalked: 1, finished: true))
    await walk.value
    let count = files.count
    await local.until {
      screen.feed.items.count == count && library.progress.headersRead == count
    }
    _ = local.text(screen)
    return screen
  }

  func press(_ screen: GalleryScreen, _ keys: Key...) {
    for key in keys { _ = screen.handle(.key(key, [])) }
  }

  func type(_ screen: GalleryScreen, _ text: String) {
    for character in text { press(screen, .character(character)) }
  }

  var selectedTitle: (GalleryScreen) -> String {
    { $0.feed.items[$0.selected].title }
  }

  @Test func slashFiltersAsItIsTypedAndEscShowsAllAgain() async {
    let screen = await screen()
    press(screen, .character("/"))
    type(screen, "MAY")
    #expect(screen.feed.items.map(\.title) == ["may-3.jpg", "may-2.jpg", "may-1.jpg"])
    var rows = local.text(screen)
    #expect(rows.last?.contains("/MAY▏ 3 matches · Enter keeps · Esc clears") == true)
    // Only May's header is left; June's went with its photos.
    #expect(rows.contains { $0.contains("May 2024 · 3 photos") })
    #expect(!rows.contains { $0.contains("Jun 2024") })
    press(screen, .backspace)
    #expect(screen.feed.items.count == 3)  // "MA": no June or April photo has it
    press(screen, .enter)
    #expect(screen.modes.filterInput == nil)
    rows = local.text(screen)
    #expect(rows.last?.contains("filter “MA” · Esc shows all") == true)
    press(screen, .character("l"))
    #expect(selectedTitle(screen) == "may-2.jpg")
    // Esc: every photo again, the selection on the same photo.
    press(screen, .escape)
    #expect(screen.feed.items.count == 12)
    _ = local.text(screen)
    #expect(selectedTitle(screen) == "may-2.jpg")
    // n and N go on finding "MA" among them all, wrapping at the ends.
    press(screen, .character("n"))
    #expect(selectedTitle(screen) == "may-1.jpg")
    press(screen, .character("n"))
    #expect(selectedTitle(screen) == "may-3.jpg")
    press(screen, .character("N"))
    #expect(selectedTitle(screen) == "may-1.jpg")  // back past the first, round to the last
    press(screen, .character("N"))
    #expect(selectedTitle(screen) == "may-2.jpg")
    // A query nothing matches says so, and Enter keeps the empty screen explained.
    press(screen, .character("/"))
    type(screen, "zzz")
    #expect(screen.feed.items.isEmpty)
    press(screen, .enter)
    #expect(local.text(screen).last?.contains("no photos named like “zzz”") == true)
    press(screen, .escape)
    #expect(screen.feed.items.count == 12)
  }

  @Test func theMonthIndexListsEachMonthWithItsCountAndJumps() async {
    let screen = await screen(april: 30)
    press(screen, .character("t"))
    #expect(screen.overlay == .monthIndex(0))
    let frame = screen.compose(framesPerSecond: 0, spinner: 0)
    let rows = (0..<frame.buffer.height).map { frame.buffer.text(ofRow: $0) }
    #expect(rows.contains { $0.contains("▶ Jun 2024 · 6") })
    #expect(rows.contains { $0.contains("May 2024 · 3") })
    #expect(rows.contains { $0.contains("Apr 2024 · 30") })
    #expect(frame.occluders.count == 1)  // the index's box: no image shows over it
    press(screen, .character("j"), .character("j"), .enter)
    #expect(screen.overlay == .none)
    #expect(selectedTitle(screen).hasPrefix("april-"))
    #expect(screen.selected == 9)
    let after = local.text(screen)
    // April's header is the first row under the title bar, and the title bar names it.
    #expect(after[1].contains("Apr 2024 · 30 photos"))
    #expect(after[0].contains("Apr 2024 · grid"))
    // Moving past either end stays on the first or last row.
    press(screen, .character("t"), .character("j"), .character("j"), .character("j"))
    #expect(screen.overlay == .monthIndex(2))
    press(screen, .character("t"))
    #expect(screen.overlay == .none)
  }

  @Test func thePositionMarkerFollowsTheScreenThroughTheTimeline() async {
    let screen = await screen(april: 60)
    func thumbRows() -> [Int] {
      let frame = screen.compose(framesPerSecond: 0, spinner: 0)
      return (1..<(frame.buffer.height - 1)).filter {
        frame.buffer.text(ofRow: $0).hasSuffix("┃")
      }
    }
    _ = local.text(screen)
    let top = thumbRows()
    #expect(top.first == 1, "at the top the thumb starts under the title bar: \(top)")
    // As tall as the share of the content the screen shows.
    let share =
      Double(screen.collectionView.viewportHeight) / Double(screen.collectionView.contentHeight)
    #expect(abs(Double(top.count) - share * Double(screen.collectionView.viewportHeight)) <= 1)
    press(screen, .character("G"))
    _ = local.text(screen)
    let bottom = thumbRows()
    #expect(
      bottom.last == screen.height - 2, "at the end the thumb ends over the status bar: \(bottom)")
  }

  @Test func theDetailViewZoomsByDecodingLargerAndPansInsideThePhoto() async throws {
    let screen = await screen()
    press(screen, .enter)
    let fitted = try #require(screen.detailRequest?.targetSize)
    press(screen, .character("l"))
    #expect(screen.detail.zoom.centre.x == 0.5 && screen.detail.zoom.centre.y == 0.5)
    press(screen, .character("+"))
    let zoomed = try #require(screen.detailRequest?.targetSize)
    #expect(zoomed.width == Int(Double(fitted.width) * 1.5))
    #expect(zoomed.height == Int(Double(fitted.height) * 1.5))
    #expect(local.text(screen).contains { $0.contains("×1.5 · h j k l pan") })
    press(screen, .character("l"), .character("l"), .character("j"))
    #expect(screen.detail.zoom.centre.x > 0.5 && screen.detail.zoom.centre.y > 0.5)
    // Panned far past the edge, the centre stays inside the photo.
    for _ in 0..<20 { press(screen, .character("l")) }
    #expect(screen.detail.zoom.centre.x == 1)
    press(screen, .character("f"))
    #expect(screen.detailRequest?.targetSize == fitted)
    #expect(screen.detail.zoom.centre.x == 0.5 && screen.detail.zoom.centre.y == 0.5)
    // Zoom stops at 16 times however often + is pressed.
    for _ in 0..<20 { press(screen, .character("+")) }
    #expect(screen.detail.zoom.factor == 16)
  }

  @Test func aZoomedViewShowsTheWindowAroundItsCentreAndNeverPastAnEdge() {
    let box = CellRect(x: 2, y: 2, width: 40, height: 20)
    // A photo twice as wide as tall, in cells: fitted, it fills the width, 20 rows.
    var zoom = PhotoZoom()
    let fitted = zoom.view(heightPerWidth: 0.5, in: box)
    #expect(fitted.rect == CellRect(x: 2, y: 2, width: 40, height: 20))
    #expect(
      fitted.window.x == 0 && fitted.window.y == 0 && fitted.window.width == 1
        && fitted.window.height == 1)
    // Twice: half of each side shows, around the centre.
    zoom.set(2)
    let twice = zoom.view(heightPerWidth: 0.5, in: box)
    #expect(twice.window.width == 0.5 && twice.window.height == 0.5)
    #expect(twice.window.x == 0.25 && twice.window.y == 0.25)
    // A centre at the corner is pulled in so the window stays inside.
    zoom.pan(x: 1, y: -1)  // half a box each way: the centre at the corner
    #expect(zoom.centre == (1, 0))
    let corner = zoom.view(heightPerWidth: 0.5, in: box)
    #expect(corner.window.x == 0.5 && corner.window.y == 0)
    // A tall photo zoomed a little is wider than before but still narrower than the box:
    // all of its width shows, centred.
    zoom.set(1)
    zoom.set(1.5)
    let tall = zoom.view(heightPerWidth: 2, in: box)
    #expect(tall.window.width == 1)
    #expect(tall.rect.width == 15 && tall.rect.x == 2 + (40 - 15) / 2)
  }

  @Test func spaceAndBackspaceShowTheNeighboursAndTheGridFollows() async {
    let screen = await screen()
    press(screen, .enter)
    let first = selectedTitle(screen)
    press(screen, .space)
    #expect(screen.selected == 1)
    guard case .detail(let shown) = screen.overlay else {
      Issue.record("no detail view")
      return
    }
    #expect(shown.title == selectedTitle(screen) && shown.title != first)
    press(screen, .backspace, .backspace)
    // From the first, back wraps to the last.
    #expect(screen.selected == screen.feed.items.count - 1)
    press(screen, .escape)
    #expect(screen.overlay == .none)
    _ = local.text(screen)
    #expect(screen.isSelectionVisible)
  }

  @Test func theSlideshowMovesOnWhenItsIntervalIsDueAndStops() async {
    let screen = await screen()
    let start = ContinuousClock.now
    screen.startSlideshow(interval: .seconds(5), now: start)
    guard case .detail = screen.overlay else {
      Issue.record("the slideshow opens the selected photo")
      return
    }
    #expect(screen.selected == 0)
    #expect(!screen.advanceSlideshow(at: start + .seconds(4)))
    #expect(screen.selected == 0)
    #expect(screen.advanceSlideshow(at: start + .seconds(5)))
    #expect(screen.selected == 1)
    // The next is due an interval after the last move, not sooner.
    #expect(!screen.advanceSlideshow(at: start + .seconds(9)))
    #expect(screen.advanceSlideshow(at: start + .seconds(10)))
    #expect(screen.selected == 2)
    #expect(local.text(screen).contains { $0.contains("s stop the slideshow") })
    press(screen, .character("s"))
    #expect(screen.modes.slideshow.running == nil)
    #expect(!screen.advanceSlideshow(at: start + .seconds(60)))
    #expect(screen.selected == 2)
    // Esc ends a slideshow with the view.
    screen.startSlideshow(interval: .seconds(5), now: start)
    press(screen, .escape)
    #expect(screen.modes.slideshow.running == nil)
  }

  @Test func keyHandlerKeysAreNamedAsNsxivNamesThem() {
    #expect(KeyHandler.argument(for: .character("r")) == "r")
    #expect(KeyHandler.argument(for: .control("r")) == "C-r")
    #expect(KeyHandler.argument(for: .function(5)) == "F5")
    #expect(KeyHandler.argument(for: .escape) == nil)
    #expect(
      KeyHandler(environment: ["XDG_CONFIG_HOME": "/c", "HOME": "/h"]).path
        == "/c/tessera/key-handler")
    #expect(KeyHandler(environment: ["HOME": "/h"]).path == "/h/.config/tessera/key-handler")
    // A relative config folder is not trusted (the spec says ignore it).
    #expect(
      KeyHandler(environment: ["XDG_CONFIG_HOME": "rel", "HOME": "/h"]).path
        == "/h/.config/tessera/key-handler")
    #expect(KeyHandler(environment: [:]).path == nil)
  }

  /// A real handler: a shell script that records its argument and standard input.
  @Test func theKeyHandlerGetsItsKeyAndThePathsOnStandardInput() async throws {
    let root = TemporaryFolder.make(prefix: "tessera-handler")
    defer { try? FileManager.default.removeItem(at: root) }
    let folder = root.appendingPathComponent("tessera")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let script = folder.appendingPathComponent("key-handler")
    let record = root.appendingPathComponent("record").path
    try ExecutableScript.write(
      "#!/bin/sh\n{ echo \"key=$1\"; cat; } > '\(record)'\nexit 3\n", to: script)
    chmod(script.path, 0o644)
    let handler = KeyHandler(environment: ["XDG_CONFIG_HOME": root.path])
    let null = open("/dev/null", O_WRONLY)
    defer { close(null) }
    // Not executable yet: said, not run.
    #expect(
      await handler.run(key: "r", paths: ["/a.jpg"], terminal: null)
        == .missing(path: script.path))
    chmod(script.path, 0o755)
    let outcome = await handler.run(key: "C-r", paths: ["/a b.jpg", "/c.jpg"], terminal: null)
    #expect(outcome == .finished(key: "C-r", status: 3))
    #expect(outcome.message == "✗ key-handler C-r: exited with status 3")
    #expect(try String(contentsOfFile: record, encoding: .utf8) == "key=C-r\n/a b.jpg\n/c.jpg\n")
  }

  /// A name with a line break is one path: with `-0` it reaches the handler whole; without,
  /// it is left out (never read as two paths, one of them another file) and the status bar
  /// says so.
  @Test func aNameWithALineBreakIsOnePathOrNone() async throws {
    let root = TemporaryFolder.make(prefix: "tessera-handler-nl")
    defer { try? FileManager.default.removeItem(at: root) }
    let script = root.appendingPathComponent("tessera/key-handler")
    try FileManager.default.createDirectory(
      at: script.deletingLastPathComponent(), withIntermediateDirectories: true)
    let record = root.appendingPathComponent("record").path
    try ExecutableScript.write("#!/bin/sh\ncat > '\(record)'\n", to: script)
    let null = open("/dev/null", O_WRONLY)
    defer { close(null) }
    let paths = ["/p/two.jpg\nthree.jpg", "/p/four.jpg"]
    let lines = KeyHandler(environment: ["XDG_CONFIG_HOME": root.path])
    let outcome = await lines.run(key: "r", paths: paths, terminal: null)
    #expect(outcome == .finished(key: "r", status: 0, leftOut: 1))
    #expect(outcome.message.contains("without 1 path with a line break"), "\(outcome.message)")
    #expect(try String(contentsOfFile: record, encoding: .utf8) == "/p/four.jpg\n")
    let nul = KeyHandler(environment: ["XDG_CONFIG_HOME": root.path], nullSeparated: true)
    #expect(await nul.run(key: "r", paths: paths, terminal: null) == .finished(key: "r", status: 0))
    let given = try Data(contentsOf: URL(fileURLWithPath: record))
    #expect(given == Data("/p/two.jpg\nthree.jpg\u{0}/p/four.jpg\u{0}".utf8))
  }

  /// A name that is not UTF-8 reaches the handler as its own bytes, with or without `-0`.
  @Test func aNameThatIsNotUTF8ReachesTheHandlerAsItsBytes() {
    let raw = Array("/p/caf".utf8) + [0xE9] + Array(".jpg".utf8)
    let path = FileSystemName.string(raw)
    #expect(KeyHandler(environment: [:]).input(for: [path]).bytes == raw + [0x0A])
    #expect(KeyHandler(environment: [:], nullSeparated: true).input(for: [path]).bytes == raw + [0])
  }
}
