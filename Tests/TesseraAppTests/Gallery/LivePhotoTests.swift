import Foundation
import TesseraFeeds
import TesseraImages
import TesseraPhotoLibrary
import TesseraTestSupport
import TesseraUtilities
import Testing

@testable import TesseraGallery

/// A Live Photo or a motion photo is one item that says LIVE, names its motion for a player,
/// and (a Live Photo) goes to the Trash and back with its video.
@MainActor
@Suite(.inProcessScreen)
struct LivePhotoTests {
  static func facts(_ path: String, motion: MotionSource?) -> GalleryItem.LocalFacts {
    GalleryItem.LocalFacts(
      path: path, fileSize: 2_000_000, pixelSize: nil, taken: "2024-06-05 12:20",
      modified: "2024-06-05 12:21", model: nil, headerRead: true, rawCompanion: nil,
      duration: nil, motion: motion)
  }

  @Test func aPhotoThatMovesSaysLIVEOnItsTileAndInItsDetail() {
    let live = Self.facts("/p/IMG_1.HEIC", motion: MotionSource(path: "/p/IMG_1.MOV"))
    #expect(live.motionBadge == "LIVE")
    #expect(live.motionCompanionPath == "/p/IMG_1.MOV")
    #expect(live.lines.last == "LIVE · motion IMG_1.MOV beside it (d moves both to the Trash)")
    let appended = Self.facts(
      "/p/PXL_1.MP.jpg",
      motion: MotionSource(path: "/p/PXL_1.MP.jpg", byteOffset: 3_000_000, byteLength: 1_900_000))
    #expect(appended.motionBadge == "LIVE")
    // Its video is in its own file: nothing more to trash.
    #expect(appended.motionCompanionPath == nil)
    #expect(appended.lines.last == "LIVE · motion photo · its video 1.9 MB, appended to the file")
    let still = Self.facts("/p/a.jpg", motion: nil)
    #expect(still.motionBadge == nil && still.motionCompanionPath == nil)
    #expect(!still.lines.contains { $0.hasPrefix("LIVE") })
  }

  /// The screen over a walk of `files`, its Trash in `data`; returns once every header is read.
  func screen(
    _ files: [WalkedFile], trash data: String
  ) async -> GalleryScreen {
    let walker = ControlledWalker()
    let library = PhotoLibrary(
      walker: walker, headerReader: TableHeaderReader([:]), zone: TimeZone(identifier: "UTC")!)
    library.provisionalOrderDelay = .seconds(3_600)
    let feed = GalleryFeed(title: "photos") { library }
    let screen = GalleryScreen(
      feed: feed, pipeline: ImagePipeline(configuration: .init(diskCache: nil)), layout: .grid,
      columns: 4, width: 100, height: 40, cellPixels: PixelSize(width: 1, height: 2))
    screen.services.trash = FreedesktopTrash(environment: ["XDG_DATA_HOME": data, "HOME": data])
    let walk = Task { await screen.start() }
    walker.release(WalkBatch(files: files, foldersWalked: 1, finished: true))
    await walk.value
    while library.progress.headersRead < files.count || screen.feed.items.count < files.count {
      await Task.yield()
    }
    return screen
  }

  func text(_ screen: GalleryScreen) -> String {
    _ = screen.tick(milliseconds: 0)
    let frame = screen.compose(framesPerSecond: 0, spinner: 0)
    return (0..<frame.buffer.height).map { frame.buffer.text(ofRow: $0) }.joined(separator: "\n")
  }

  static func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

  @Test func dTrashesALivePhotosVideoWithItAndUPutsBothBack() async throws {
    let root = TemporaryFolder.make(prefix: "tessera-live-trash")
    defer { try? FileManager.default.removeItem(at: root) }
    do {
      let image = root.appendingPathComponent("IMG_1.HEIC").path
      let video = root.appendingPathComponent("IMG_1.MOV").path
      for path in [image, video] { try Data([1, 2, 3]).write(to: URL(fileURLWithPath: path)) }
      let data = root.appendingPathComponent("data").path
      let screen = await screen(
        [
          WalkedFile(
            path: image, size: 3, modified: Date(timeIntervalSince1970: 0),
            motionCompanion: "IMG_1.MOV")
        ], trash: data)
      #expect(screen.feed.items.first?.local?.motion == MotionSource(path: video))
      #expect(text(screen).contains("LIVE IMG_1.HEIC"))
      _ = screen.handle(.key(.character("d"), []))
      #expect(screen.status.message == "moved 1 photo to the Trash · u puts it back")
      for name in ["IMG_1.HEIC", "IMG_1.MOV"] {
        #expect(!Self.exists(root.appendingPathComponent(name).path))
        #expect(Self.exists("\(data)/Trash/files/\(name)"))
      }
      _ = screen.handle(.key(.character("u"), []))
      #expect(screen.status.message == "put back 1 photo")
      #expect(Self.exists(image) && Self.exists(video))
    }
  }

  /// The video cannot go (it is gone already): the image goes all the same, nothing is lost,
  /// and the status bar says why; `u` brings the image back.
  @Test func aVideoThatCannotMoveLeavesThePhotoTrashedAndSaysWhy() async throws {
    let root = TemporaryFolder.make(prefix: "tessera-live-trash-fail")
    defer { try? FileManager.default.removeItem(at: root) }
    do {
      let image = root.appendingPathComponent("IMG_2.jpg").path
      try Data([1, 2, 3]).write(to: URL(fileURLWithPath: image))
      let data = root.appendingPathComponent("data").path
      let screen = await screen(
        [
          WalkedFile(
            path: image, size: 3, modified: Date(timeIntervalSince1970: 0),
            motionCompanion: "IMG_2.mov")
        ], trash: data)
      _ = screen.handle(.key(.character("d"), []))
      let message = try #require(screen.status.message)
      #expect(message.hasPrefix("moved 1 photo to the Trash; ✗ "))
      #expect(message.contains("IMG_2.mov"))
      #expect(!Self.exists(image) && Self.exists("\(data)/Trash/files/IMG_2.jpg"))
      _ = screen.handle(.key(.character("u"), []))
      #expect(screen.status.message == "put back 1 photo")
      #expect(Self.exists(image))
    }
  }
}
