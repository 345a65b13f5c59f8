import Foundation
import TesseraTestSupport
import TesseraUtilities
import Testing

@testable import TesseraPhotoLibrary

/// The second look at a folder: facts stored by the first walk make every date known as the
/// photos are found.
@MainActor
@Suite(.timeLimit(.minutes(1))) struct PhotoLibraryFactsTests {
  static let utc = TimeZone(identifier: "UTC")!

  /// Two folders; the dates taken put the photos in another order than their mtimes.
  static let files = [
    WalkedFile(path: "/p/2023/a.jpg", size: 10, modified: Date(timeIntervalSince1970: 1_000)),
    WalkedFile(path: "/p/2023/b.jpg", size: 10, modified: Date(timeIntervalSince1970: 2_000)),
    WalkedFile(path: "/p/2024/c.jpg", size: 10, modified: Date(timeIntervalSince1970: 3_000)),
  ]
  static let headers = [
    "/p/2023/a.jpg": taken("2024:07:01 09:00:00"),
    "/p/2023/b.jpg": taken("2019:01:05 12:00:00"),
    "/p/2024/c.jpg": taken("2021:03:03 10:00:00"),
  ]

  func walkOnce(
    _ files: [WalkedFile], store: PhotoFactsStore, reader: TableHeaderReader
  ) async -> (library: PhotoLibrary, firstOrder: [String]?) {
    let walker = ControlledWalker()
    let library = PhotoLibrary(walker: walker, headerReader: reader, facts: store, zone: Self.utc)
    // The first walk's order waits for its dates however slow the machine (no clock decides).
    library.provisionalOrderDelay = .seconds(3_600)
    let observer = LibraryObserver(library)
    var firstOrder: [String]?
    let observing = library.onChange
    library.onChange = { change in
      if change == .items, firstOrder == nil {
        firstOrder = library.order.map { library.catalog.photo(at: $0).file.name }
      }
      observing?(change)
    }
    let walk = Task { await library.start() }
    walker.release(WalkBatch(files: files, foldersWalked: 2, finished: true))
    await walk.value
    await observer.wait { library.progress.headersRead == files.count }
    await library.factsStored()
    return (library, firstOrder)
  }

  @Test func theSecondWalkReadsNoHeaderAndPublishesTheFinalOrderFirst() async {
    let directory = TemporaryFolder.make()
    defer { try? FileManager.default.removeItem(at: directory) }
    do {
      let store = PhotoFactsStore(directory: directory)
      let firstReader = TableHeaderReader(Self.headers)
      let (first, firstPublished) = await walkOnce(Self.files, store: store, reader: firstReader)
      #expect(firstReader.readOrder.withLock { $0.count } == 3)
      let finalOrder = first.order.map { first.catalog.photo(at: $0).file.name }
      #expect(finalOrder == ["a.jpg", "c.jpg", "b.jpg"])
      // A small folder's first order waits for the dates of its first round of reads.
      #expect(firstPublished == finalOrder)

      let secondReader = TableHeaderReader([:])
      let (second, secondPublished) = await walkOnce(Self.files, store: store, reader: secondReader)
      #expect(secondReader.readOrder.withLock { $0 }.isEmpty)
      #expect(secondPublished == finalOrder)
      #expect(second.allPhotos.map(\.header) == first.allPhotos.map(\.header))
    }
  }

  @Test func aChangedPhotoIsReadAgainAndItsFolderStoredAfresh() async {
    let directory = TemporaryFolder.make()
    defer { try? FileManager.default.removeItem(at: directory) }
    do {
      let store = PhotoFactsStore(directory: directory)
      _ = await walkOnce(Self.files, store: store, reader: TableHeaderReader(Self.headers))
      var changed = Self.files
      changed[1].modified = Date(timeIntervalSince1970: 5_000)
      var headers = Self.headers
      headers["/p/2023/b.jpg"] = taken("2025:01:01 00:00:00")
      let reader = TableHeaderReader(headers)
      let second = await walkOnce(changed, store: store, reader: reader).library
      // Only the changed file's header is read; its folder is stored with the new date.
      #expect(reader.readOrder.withLock { $0 } == ["/p/2023/b.jpg"])
      #expect(
        second.order.map { second.catalog.photo(at: $0).file.name } == ["b.jpg", "a.jpg", "c.jpg"])
      let third = TableHeaderReader([:])
      let again = await walkOnce(changed, store: store, reader: third).library
      #expect(third.readOrder.withLock { $0 }.isEmpty)
      #expect(
        again.order.map { again.catalog.photo(at: $0).file.name } == ["b.jpg", "a.jpg", "c.jpg"])
    }
  }

  @Test func withoutAStoreEveryWalkReadsEveryHeader() async {
    let reader = TableHeaderReader(Self.headers)
    let walker = ControlledWalker()
    let library = PhotoLibrary(walker: walker, headerReader: reader, zone: Self.utc)
    let observer = LibraryObserver(library)
    let walk = Task { await library.start() }
    walker.release(WalkBatch(files: Self.files, foldersWalked: 2, finished: true))
    await walk.value
    await observer.wait { library.progress.headersRead == 3 }
    #expect(reader.readOrder.withLock { $0.count } == 3)
  }
}
