import Foundation
import TesseraTestSupport
import TesseraUtilities
import Testing

@testable import TesseraPhotoLibrary

/// The photos on screen in a library larger than one publish: their facts arrive first, but
/// they stay where they are until the next batch re-sorts (else each re-sort moves them away,
/// their successors are read next and move too, and so on: a cycle of O(n) publishes).
@MainActor
@Suite(.timeLimit(.minutes(1))) struct PhotoLibraryScreenTests {
  static let utc = TimeZone(identifier: "UTC")!

  func names(_ library: PhotoLibrary) -> [String] {
    library.order.map { library.catalog.photo(at: $0).file.name }
  }

  @Test func inALargeLibraryTheScreensPhotosGetTheirFactsInPlace() async {
    let walker = ControlledWalker()
    // The two newest by mtime were taken long ago: sorted by date they go last.
    let reader = TableHeaderReader(
      [
        "/photos/9.jpg": taken("2001:01:01 10:00:00"),
        "/photos/8.jpg": taken("2001:01:02 10:00:00"),
      ], held: true)
    let library = PhotoLibrary(walker: walker, headerReader: reader, zone: Self.utc)
    library.minimumPublish = 4
    library.headerChunk = 1
    let observer = LibraryObserver(library)
    let walk = Task { await library.start() }
    let files = (0..<10).map { file("\($0).jpg", modified: Double(1_600_000_000 + $0 * 1_000)) }
    walker.release(WalkBatch(files: files, foldersWalked: 1, finished: true))
    await walk.value
    let byModified = (0..<10).reversed().map { "\($0).jpg" }
    #expect(names(library) == byModified)
    // The background round (photo 0) is held; the screen shows 9 and 8.
    library.prioritize(photos: [9, 8])
    reader.open(1)
    reader.open(2)
    await observer.wait { library.progress.headersRead == 3 }
    // Their dates are known and published, and they have not moved. Only the screen's photos: what else was read (photo 0) waits for the next batch.
    #expect(
      Set(library.changedPhotos.map { library.catalog.photo(at: $0).file.name }) == [
        "9.jpg", "8.jpg",
      ])
    #expect(library.catalog.photo(at: 9).taken == WallClockTime(exif: "2001:01:01 10:00:00"))
    #expect(names(library) == byModified)
    // Once every header is read, the order is by date.
    reader.open(7)
    await observer.wait { library.progress.headersRead == 10 }
    await observer.wait { names(library).last == "9.jpg" }
    #expect(names(library) == (0..<8).reversed().map { "\($0).jpg" } + ["8.jpg", "9.jpg"])
  }
}
