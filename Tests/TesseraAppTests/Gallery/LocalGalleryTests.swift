import Dispatch
import Foundation
import TesseraCollection
import TesseraFeeds
import TesseraImages
import TesseraPhotoLibrary
import TesseraTerminal
import TesseraTestSupport
import TesseraUtilities
import Testing

@testable import TesseraGallery

/// The gallery's screen over a local walk, headless: frames are composed and read as text.
@MainActor
@Suite(.inProcessScreen)
struct LocalGalleryTests {
  static let utc = TimeZone(identifier: "UTC")!

  func makeScreen(
    _ walker: ControlledWalker, headers: [String: PhotoHeader] = [:],
    ordering: PhotoOrdering = PhotoOrdering(), rewalks: [ControlledWalker] = []
  ) -> (GalleryScreen, PhotoLibrary) {
    func library(_ walker: ControlledWalker) -> PhotoLibrary {
      let library = PhotoLibrary(
        walker: walker, ordering: ordering, headerReader: TableHeaderReader(headers),
        zone: Self.utc)
      // A first order waits for its dates however slow the machine (no clock decides).
      library.provisionalOrderDelay = .seconds(3_600)
      return library
    }
    let first = library(walker)
    var pending = rewalks
    var made = false
    // The first library, then one per `r` with the next walker.
    let feed = GalleryFeed(title: "photos in /p") {
      if !made {
        made = true
        return first
      }
      return library(pending.isEmpty ? ControlledWalker() : pending.removeFirst())
    }
    let screen = GalleryScreen(
      feed: feed, pipeline: ImagePipeline(configuration: .init(diskCache: nil)), layout: .grid,
      columns: 4, width: 100, height: 40, cellPixels: PixelSize(width: 1, height: 2))
    return (screen, first)
  }

  /// Lets the main actor run the library's work until `condition` holds (no clock).
  func until(_ condition: () -> Bool) async {
    while !condition() { await Task.yield() }
  }

  func text(_ screen: GalleryScreen) -> [String] {
    _ = screen.tick(milliseconds: 0)
    let frame = screen.compose(framesPerSecond: 0, spinner: 0)
    return (0..<frame.buffer.height).map { frame.buffer.text(ofRow: $0) }
  }

  static func file(_ name: String, _ date: String, size: Int = 1_000) -> WalkedFile {
    let seconds = WallClockTime(exif: date)!.seconds
    return WalkedFile(
      path: "/p/\(name)", size: size, modified: Date(timeIntervalSince1970: Double(seconds)))
  }

  @Test func theFirstScreenShowsWhileTheWalkGoesOnWithMonthHeaders() async {
    let walker = ControlledWalker()
    let (screen, library) = makeScreen(walker)
    let walk = Task { await screen.start() }
    let june = (1...6).map { Self.file("june-\($0).jpg", "2024:06:0\($0) 12:00:00") }
    let may = (1...3).map { Self.file("may-\($0).jpg", "2024:05:0\($0) 12:00:00") }
    walker.release(WalkBatch(files: june + may, foldersWalked: 1))
    await until { screen.feed.items.count == 9 }
    let during = text(screen)
    #expect(library.progress.walkFinished == false)
    #expect(during.contains { $0.contains("Jun 2024 · 6 photos") })
    #expect(during.contains { $0.contains("May 2024 · 3 photos") })
    #expect(during.contains { $0.contains("june-6.jpg") })
    #expect(during.last?.contains("walking · 9 photos in 1 folders") == true)
    // Newest first: June's header comes before May's, june-6 before june-1.
    let june6 = during.firstIndex { $0.contains("june-6.jpg") } ?? .max
    let mayHeader = during.firstIndex { $0.contains("May 2024") } ?? -1
    #expect(june6 < mayHeader)

    walker.release(
      WalkBatch(
        files: [Self.file("july.jpg", "2024:07:01 09:00:00")], foldersWalked: 2, finished: true))
    await walk.value
    await until { screen.feed.items.count == 10 && library.progress.headersRead == 10 }
    let after = text(screen)
    #expect(after.contains { $0.contains("Jul 2024 · 1 photo") })
    #expect(after.last?.contains("walking") == false)
    // The person had not scrolled: the newest photo, found last, is at the top.
    #expect(screen.selected == 0)
    #expect(screen.feed.items.first?.title == "july.jpg")
  }

  /// `r` on a folder walks it again: what the screen shows stays until the new walk ends, then
  /// files that came and went are shown in one update, and the selection stays on its photo.
  @Test func refreshWalksAgainAndTakesTheNewOrderWhenTheWalkEnds() async {
    let walker = ControlledWalker()
    let again = ControlledWalker()
    let (screen, _) = makeScreen(walker, ordering: PhotoOrdering(sort: .name), rewalks: [again])
    let walk = Task { await screen.start() }
    let names = ["b.jpg", "c.jpg", "d.jpg"]
    walker.release(
      WalkBatch(
        files: names.map { Self.file($0, "2024:01:01 00:00:00") }, foldersWalked: 1,
        finished: true))
    await walk.value
    await until { screen.feed.items.count == 3 }
    _ = screen.handle(.key(.character("l"), []))
    _ = text(screen)
    #expect(screen.feed.items[screen.selected].title == "c.jpg")
    let refresh = Task { await screen.refresh() }
    // a.jpg is new, d.jpg was deleted: the first batch of the new walk changes nothing yet.
    again.release(WalkBatch(files: [Self.file("a.jpg", "2024:01:01 00:00:00")], foldersWalked: 1))
    await until { text(screen).last?.contains("walking · 1 photos") == true }
    #expect(screen.feed.items.map(\.title) == names)
    again.release(
      WalkBatch(
        files: ["b.jpg", "c.jpg"].map { Self.file($0, "2024:01:01 00:00:00") }, foldersWalked: 1,
        finished: true))
    await refresh.value
    #expect(screen.feed.items.map(\.title) == ["a.jpg", "b.jpg", "c.jpg"])
    _ = text(screen)
    #expect(screen.feed.items[screen.selected].title == "c.jpg")
  }

  /// `r` on a small folder: the new walk's first order waits for its dates, and until then
  /// the screen keeps the old order, never an empty one.
  @Test func refreshKeepsTheOldOrderUntilTheNewWalksDatesAreRead() async {
    let walker = ControlledWalker()
    let again = ControlledWalker()
    let held = TableHeaderReader([:], held: true)
    let fresh = PhotoLibrary(walker: again, headerReader: held, zone: Self.utc)
    fresh.provisionalOrderDelay = .seconds(3_600)
    var libraries = [
      PhotoLibrary(walker: walker, headerReader: TableHeaderReader([:]), zone: Self.utc), fresh,
    ]
    let feed = GalleryFeed(title: "photos in /p") { libraries.removeFirst() }
    let screen = GalleryScreen(
      feed: feed, pipeline: ImagePipeline(configuration: .init(diskCache: nil)), layout: .grid,
      columns: 4, width: 100, height: 40, cellPixels: PixelSize(width: 1, height: 2))
    let walk = Task { await screen.start() }
    let before = ["b.jpg", "c.jpg"].map { Self.file($0, "2024:01:01 00:00:00") }
    walker.release(WalkBatch(files: before, foldersWalked: 1, finished: true))
    await walk.value
    await until { screen.feed.items.count == 2 }
    let refresh = Task { await screen.refresh() }
    again.release(
      WalkBatch(
        files: before + [Self.file("a.jpg", "2024:01:01 00:00:00")], foldersWalked: 1,
        finished: true))
    await until { text(screen).last?.contains("reading dates 0 of 3") == true }
    #expect(fresh.isSettlingFirstOrder)
    #expect(Set(screen.feed.items.map(\.title)) == ["b.jpg", "c.jpg"])
    held.open(3)
    await refresh.value
    #expect(Set(screen.feed.items.map(\.title)) == ["a.jpg", "b.jpg", "c.jpg"])
  }

  @Test func theSelectionStaysOnItsPhotoWhenABatchInsertsAbove() async {
    let walker = ControlledWalker()
    let (screen, _) = makeScreen(walker, ordering: PhotoOrdering(sort: .name))
    let walk = Task { await screen.start() }
    walker.release(WalkBatch(files: (0..<8).map { Self.file("m\($0).jpg", "2024:01:01 00:00:00") }))
    await until { screen.feed.items.count == 8 }
    _ = text(screen)
    _ = screen.handle(.key(.character("l"), []))
    _ = screen.handle(.key(.character("l"), []))
    _ = text(screen)
    #expect(screen.feed.items[screen.selected].title == "m2.jpg")
    walker.release(
      WalkBatch(
        files: (0..<5).map { Self.file("a\($0).jpg", "2024:01:01 00:00:00") }, finished: true))
    await walk.value
    await until { screen.feed.items.count == 13 }
    #expect(screen.feed.items[screen.selected].title == "m2.jpg")
  }

  @Test func theDetailViewTellsALocalPhotosFactsOpensAndCopiesItsPath() async throws {
    let walker = ControlledWalker()
    let path = "/p/IMG_0001.jpg"
    let header = PhotoHeader(
      pixelSize: PixelSize(width: 3000, height: 4000),
      exif: ExifFacts(
        taken: WallClockTime(exif: "2024:05:01 14:30:00"), model: "Pixel 8", orientation: 6))
    let (screen, library) = makeScreen(walker, headers: [path: header])
    var written: [[UInt8]] = []
    var opened: [String] = []
    screen.services.writeToTerminal = { written.append($0) }
    screen.services.openExternally = {
      opened.append($0); return "opened with xdg-open"
    }
    let walk = Task { await screen.start() }
    walker.release(
      WalkBatch(
        files: [Self.file("IMG_0001.jpg", "2024:06:01 08:00:00", size: 3_200_000)], finished: true))
    await walk.value
    await until {
      library.progress.headersRead == 1 && screen.feed.items.first?.local?.headerRead == true
    }
    _ = text(screen)
    _ = screen.handle(.key(.enter, []))
    let detail = text(screen)
    #expect(detail.contains { $0.contains("3000 × 4000 px · 3.2 MB") })
    #expect(detail.contains { $0.contains("taken 2024-05-01 14:30 · Pixel 8") })
    #expect(detail.contains { $0.contains(path) })
    #expect(detail.contains { $0.contains("o open · y copy path") })

    _ = screen.handle(.key(.character("y"), []))
    let base64 = Data(path.utf8).base64EncodedString()
    #expect(written == [Array("\u{1B}]52;c;\(base64)\u{07}".utf8)])
    #expect(text(screen).last?.contains("copied the path") == true)
    _ = screen.handle(.key(.character("o"), []))
    #expect(opened == [path])
    #expect(text(screen).last?.contains("opened with xdg-open") == true)
    // Feed items (no local file) do nothing on o and y.
    _ = screen.handle(.key(.escape, []))
    #expect(screen.overlay == .none)
  }

  @Test func theDetailImageIsRequestedAtTheBoxsPixelSizeNotTheTiles() async throws {
    let walker = ControlledWalker()
    let (screen, _) = makeScreen(walker)
    screen.geometry.cellPixels = PixelSize(width: 10, height: 20)
    let walk = Task { await screen.start() }
    walker.release(WalkBatch(files: [Self.file("a.jpg", "2024:06:01 08:00:00")], finished: true))
    await walk.value
    await until { screen.feed.items.count == 1 }
    _ = text(screen)
    let tileRequest = try #require(
      screen.imageRequest(
        for: screen.feed.items[0], at: TesseraCollection.IndexPath(item: 0, section: 0),
        priority: .high))
    _ = screen.handle(.key(.enter, []))
    let box = screen.detailImageBox
    let detailRequest = try #require(screen.detailRequest)
    #expect(detailRequest.targetSize == PixelSize(width: box.width * 10, height: box.height * 20))
    #expect(detailRequest.targetSize != tileRequest.targetSize)
    #expect(detailRequest.source == .localFolder)
  }

  @Test func osc52IsBase64OfTheUTF8PathEndedByBEL() {
    #expect(
      Clipboard.osc52(copying: "/p/été.jpg")
        == Array("\u{1B}]52;c;\(Data("/p/été.jpg".utf8).base64EncodedString())\u{07}".utf8))
    // A path longer than the terminals' limit is cut, never sent whole.
    let long = String(repeating: "é", count: Clipboard.maxBytes)
    let bytes = Clipboard.osc52(copying: long)
    let payload = String(decoding: bytes.dropFirst(7).dropLast(), as: UTF8.self)
    #expect(Data(base64Encoded: payload)?.count == Clipboard.maxBytes)
    // Cut before a character, never inside one: "€" is 3 bytes.
    let euros = "ab" + String(repeating: "€", count: Clipboard.maxBytes / 3 + 1)
    let cut = Clipboard.osc52(copying: euros)
    let cutPayload = String(decoding: cut.dropFirst(7).dropLast(), as: UTF8.self)
    let cutBytes = [UInt8](Data(base64Encoded: cutPayload) ?? Data())
    #expect(cutBytes.count == Clipboard.maxBytes - 2)
    #expect(String(validating: cutBytes, as: UTF8.self) != nil)
  }

  /// A name that is not UTF-8 is copied as its own bytes, not as the characters it shows.
  @Test func osc52CopiesTheBytesOfANameThatIsNotUTF8() {
    let path = FileSystemName.string(Array("/p/caf".utf8) + [0xE9] + Array(".jpg".utf8))
    let payload = Clipboard.osc52(copying: path).dropFirst(7).dropLast()
    #expect(
      Data(base64Encoded: String(decoding: payload, as: UTF8.self))
        == Data(Array("/p/caf".utf8) + [0xE9] + Array(".jpg".utf8)))
  }

  @Test func xdgOpenIsLookedUpOnThePath() throws {
    #expect(ExternalOpener.xdgOpen(path: "/nonexistent-a:/nonexistent-b") == nil)
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tessera-xdg-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let tool = folder.appendingPathComponent("xdg-open").path
    #expect(FileManager.default.createFile(atPath: tool, contents: Data("#!/bin/sh\n".utf8)))
    chmod(tool, 0o755)
    #expect(ExternalOpener.xdgOpen(path: "/nonexistent:\(folder.path)") == tool)
  }
}
