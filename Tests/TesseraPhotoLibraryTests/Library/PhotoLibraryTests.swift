import Dispatch
import Foundation
import TesseraTestSupport
import TesseraUtilities
import Testing

@testable import TesseraPhotoLibrary

@MainActor
final class LibraryObserver {
  private var continuation: AsyncStream<Void>.Continuation?
  private let changes: AsyncStream<Void>

  init(_ library: PhotoLibrary) {
    var continuation: AsyncStream<Void>.Continuation?
    changes = AsyncStream { continuation = $0 }
    self.continuation = continuation
    library.onChange = { [weak self] _ in self?.continuation?.yield() }
  }

  /// Returns once `condition` holds, checking after every change (no clock involved).
  func wait(until condition: () -> Bool) async {
    if condition() { return }
    for await _ in changes where condition() { return }
  }
}

extension PhotoLibrary {
  /// Every photo found, in the order found.
  var allPhotos: [LocalPhoto] { (0..<count).map { catalog.photo(at: $0) } }
}

func file(_ name: String, modified: TimeInterval) -> WalkedFile {
  WalkedFile(path: "/photos/\(name)", size: 1_000, modified: Date(timeIntervalSince1970: modified))
}

func taken(_ text: String) -> PhotoHeader {
  PhotoHeader(pixelSize: nil, exif: ExifFacts(taken: WallClockTime(exif: text)))
}

@MainActor
@Suite(.timeLimit(.minutes(1))) struct PhotoLibraryTests {
  static let utc = TimeZone(identifier: "UTC")!

  func names(_ library: PhotoLibrary) -> [String] {
    library.order.map { library.catalog.photo(at: $0).file.name }
  }

  @Test func theFirstPhotosShowBeforeTheWalkEnds() async {
    let walker = ControlledWalker()
    let library = PhotoLibrary(walker: walker, headerReader: TableHeaderReader([:]), zone: Self.utc)
    // The rest of the walk does not come in time for the first order to wait for it.
    library.provisionalOrderDelay = .zero
    let observer = LibraryObserver(library)
    let walk = Task { await library.start() }
    walker.release(
      WalkBatch(
        files: [file("a.jpg", modified: 100), file("b.jpg", modified: 200)], foldersWalked: 1))
    await observer.wait { library.order.count == 2 }
    #expect(library.progress.walkFinished == false)
    #expect(names(library) == ["b.jpg", "a.jpg"])
    walker.release(
      WalkBatch(files: [file("c.jpg", modified: 150)], foldersWalked: 2, finished: true))
    await walk.value
    await observer.wait { library.order.count == 3 }
    #expect(names(library) == ["b.jpg", "c.jpg", "a.jpg"])
    #expect(
      library.progress
        == .init(
          photosFound: 3, foldersWalked: 2, headersRead: library.progress.headersRead,
          walkFinished: true))
  }

  /// An old photo copied lately, a new one copied long ago, a screenshot between: their
  /// modification times and dates taken disagree.
  static let copies = [
    file("old-copy.jpg", modified: 1_600_000_000), file("new-copy.jpg", modified: 1_700_000_000),
    file("screenshot.png", modified: 1_650_000_000),
  ]

  /// The copies' dates taken, held until the test opens them.
  static func copiesReader() -> TableHeaderReader {
    TableHeaderReader(
      [
        "/photos/old-copy.jpg": taken("2024:07:01 09:00:00"),
        "/photos/new-copy.jpg": taken("2019:01:05 12:00:00"),
      ], held: true)
  }

  @Test func newestFirstByDateTakenOnceHeadersArriveByModifiedUntilThen() async {
    let walker = ControlledWalker()
    let reader = Self.copiesReader()
    let library = PhotoLibrary(walker: walker, headerReader: reader, zone: Self.utc)
    // Dates that do not come at once (a slow disk): the photos show by modification time.
    library.provisionalOrderDelay = .zero
    let observer = LibraryObserver(library)
    let walk = Task { await library.start() }
    walker.release(WalkBatch(files: Self.copies, foldersWalked: 1, finished: true))
    await walk.value
    await observer.wait { library.order.count == 3 }
    #expect(library.isSettlingFirstOrder == false)
    #expect(library.progress.headersRead == 0)
    #expect(names(library) == ["new-copy.jpg", "screenshot.png", "old-copy.jpg"])
    reader.open(3)
    await observer.wait { library.progress.headersRead == 3 }
    // 2024-07 (taken) > 2022-04 (screenshot's mtime) > 2019-01 (taken).
    #expect(names(library) == ["old-copy.jpg", "screenshot.png", "new-copy.jpg"])
    #expect(library.sections.map(\.title) == ["Jul 2024", "Apr 2022", "Jan 2019"])
    #expect(library.sections.map(\.range) == [0..<1, 1..<2, 2..<3])
  }

  /// A walk that ends with all its dates due in one round shows nothing until they come, so
  /// the first screen's decodes go to the photos that stay on it.
  @Test func aSmallFolderIsFirstShownInItsOrderByDateTaken() async {
    let walker = ControlledWalker()
    let reader = Self.copiesReader()
    let library = PhotoLibrary(walker: walker, headerReader: reader, zone: Self.utc)
    library.provisionalOrderDelay = .seconds(3_600)
    var published: [[String]] = []
    let observer = LibraryObserver(library)
    let observing = library.onChange
    library.onChange = { change in
      if change == .items { published.append(self.names(library)) }
      observing?(change)
    }
    let walk = Task { await library.start() }
    // A folder's photos, then the walk's end in a batch of its own (as `FolderWalker` sends
    // them when the last folder holds more than its first batch).
    walker.release(WalkBatch(files: Self.copies, foldersWalked: 1))
    walker.release(WalkBatch(files: [], foldersWalked: 1, finished: true))
    await walk.value
    #expect(library.isSettlingFirstOrder)
    #expect(library.progress.photosFound == 3)
    #expect(library.order.isEmpty)
    reader.open(3)
    await observer.wait { library.order.count == 3 }
    #expect(library.isSettlingFirstOrder == false)
    #expect(published == [["old-copy.jpg", "screenshot.png", "new-copy.jpg"]])
  }

  /// More unread photos than a first round reads: the photos show by modification time at
  /// once, as a large tree's walk shows them.
  @Test func aFolderLargerThanOneRoundIsShownAtOnce() async {
    let walker = ControlledWalker()
    let reader = TableHeaderReader([:], held: true)
    let library = PhotoLibrary(walker: walker, headerReader: reader, zone: Self.utc)
    library.headerChunk = 2
    library.provisionalOrderDelay = .seconds(3_600)
    let observer = LibraryObserver(library)
    let walk = Task { await library.start() }
    walker.release(
      WalkBatch(
        files: (0..<3).map { file("\($0).jpg", modified: Double(1_000 + $0)) },
        foldersWalked: 1, finished: true))
    await walk.value
    await observer.wait { library.order.count == 3 }
    #expect(library.isSettlingFirstOrder == false)
    #expect(names(library) == ["2.jpg", "1.jpg", "0.jpg"])
    library.stop()
    reader.open(3)
  }

  /// A camera's model name is stored once for all its photos, beside their paths.
  @Test func photosOfOneCameraStoreItsModelNameOnce() async {
    let names = ["a.jpg", "b.jpg", "c.jpg"]
    var headers: [String: PhotoHeader] = [:]
    for name in names {
      headers["/photos/\(name)"] = PhotoHeader(
        exif: ExifFacts(model: name == "c.jpg" ? "FUJIFILM X100VI long" : "Canon EOS 5D Mark IV"))
    }
    let walker = ControlledWalker()
    let library = PhotoLibrary(
      walker: walker, headerReader: TableHeaderReader(headers), zone: Self.utc)
    let observer = LibraryObserver(library)
    let walk = Task { await library.start() }
    walker.release(
      WalkBatch(
        files: names.enumerated().map { file($1, modified: Double($0)) }, foldersWalked: 1,
        finished: true))
    await walk.value
    await observer.wait { library.progress.headersRead == 3 }
    let model = { (name: String) in
      library.allPhotos.first { $0.file.name == name }?.header?.exif?.model
    }
    #expect(model("a.jpg") == "Canon EOS 5D Mark IV")
    #expect(model("b.jpg") == "Canon EOS 5D Mark IV")
    #expect(model("c.jpg") == "FUJIFILM X100VI long")
    let paths = names.map { "/photos/\($0)".utf8.count }.reduce(0, +)
    #expect(
      library.catalog.stringBytes
        == paths + "Canon EOS 5D Mark IV".utf8.count + "FUJIFILM X100VI long".utf8.count)
  }

  @Test func thePhotosOnScreenHaveTheirHeadersReadFirst() async {
    let walker = ControlledWalker()
    let reader = TableHeaderReader([:], held: true)
    let library = PhotoLibrary(walker: walker, headerReader: reader, zone: Self.utc)
    library.headerChunk = 4
    let observer = LibraryObserver(library)
    let walk = Task { await library.start() }
    let files = (0..<40).map { file("\($0).jpg", modified: Double(1_000 + $0)) }
    walker.release(WalkBatch(files: files, foldersWalked: 1, finished: true))
    await walk.value
    // The first background round (photos 0…3) is under way and held; the screen shows 30…33.
    library.prioritize(photos: Array(30..<34))
    reader.open(8)
    await observer.wait { library.progress.headersRead == 8 }
    let order = reader.readOrder.withLock { $0 }
    #expect(Set(order.prefix(4)) == Set((0..<4).map { "/photos/\($0).jpg" }))
    #expect(Set(order.dropFirst(4)) == Set((30..<34).map { "/photos/\($0).jpg" }))
    reader.open(32)
    await observer.wait { library.progress.headersRead == 40 }
  }

  /// Background rounds of header reads double, up to `maxHeaderChunk`: 200 photos' dates take
  /// two round trips to the main actor, not four.
  @Test func headerRoundsGrowUpToTheirLimit() async {
    let walker = ControlledWalker()
    let reader = TableHeaderReader([:], held: true)
    let library = PhotoLibrary(walker: walker, headerReader: reader, zone: Self.utc)
    library.headerChunk = 2
    library.maxHeaderChunk = 4
    let observer = LibraryObserver(library)
    let walk = Task { await library.start() }
    let files = (0..<20).map { file("\($0).jpg", modified: Double(1_000 + $0)) }
    walker.release(WalkBatch(files: files, foldersWalked: 1, finished: true))
    await walk.value
    reader.open(2)
    await observer.wait { library.progress.headersRead == 2 }
    // Three reads into the second round: it is a round of 4, so none is applied yet (rounds
    // of 2 would have applied two, and the fifth read starts only after that).
    reader.open(3)
    while reader.readOrder.withLock({ $0.count }) < 5 { await Task.yield() }
    #expect(library.progress.headersRead == 2)
    reader.open(1)
    await observer.wait { library.progress.headersRead == 6 }
    reader.open(3)
    while reader.readOrder.withLock({ $0.count }) < 9 { await Task.yield() }
    #expect(library.progress.headersRead == 6)
    // The tenth read ends the third round: 4, the limit, not 8.
    reader.open(1)
    await observer.wait { library.progress.headersRead == 10 }
    reader.open(10)
    await observer.wait { library.progress.headersRead == 20 }
  }

  @Test func publishesGrowWithTheLibraryNotOnePerBatch() async {
    let walker = ControlledWalker()
    let reader = TableHeaderReader([:], held: true)
    let library = PhotoLibrary(walker: walker, headerReader: reader, zone: Self.utc)
    library.minimumPublish = 100
    library.provisionalOrderDelay = .seconds(3_600)
    var publishes = 0
    let observer = LibraryObserver(library)
    let counting = library.onChange
    library.onChange = { change in
      if change == .items { publishes += 1 }
      counting?(change)
    }
    let walk = Task { await library.start() }
    for batch in 0..<50 {
      walker.release(
        WalkBatch(
          files: (0..<20).map { file("\(batch)-\($0).jpg", modified: Double(batch * 100 + $0)) },
          foldersWalked: batch + 1, finished: batch == 49))
    }
    await walk.value
    await observer.wait { library.order.count == 1_000 }
    // Once more than a round of dates is unread, then every 100 or more, then the end: far
    // fewer than 50.
    #expect(publishes >= 2)
    #expect(publishes <= 12)
    library.stop()
    reader.open(1_000)
  }
}

@Suite struct PhotoOrderingTests {
  static let utc = TimeZone(identifier: "UTC")!

  func photo(_ name: String, modified: String, taken takenText: String? = nil) -> LocalPhoto {
    let seconds = WallClockTime(exif: modified)!.seconds
    return LocalPhoto(
      file: WalkedFile(
        path: "/p/\(name)", size: 1, modified: Date(timeIntervalSince1970: Double(seconds))),
      header: takenText.map(taken), zone: Self.utc)
  }

  var photos: [LocalPhoto] {
    [
      photo("b.jpg", modified: "2024:05:02 10:00:00", taken: "2023:12:31 23:59:59"),
      photo("a.jpg", modified: "2024:05:01 10:00:00"),
      photo("c.jpg", modified: "2024:05:01 08:00:00", taken: "2024:01:01 00:00:00"),
      photo("d.jpg", modified: "2024:05:01 10:00:00"),
    ]
  }

  /// The photos in a catalog of their own, in the order given.
  func catalog(_ photos: [LocalPhoto]) -> PhotoCatalog {
    let catalog = PhotoCatalog()
    for photo in photos {
      _ = catalog.append(
        photo.file, folder: photo.file.folder, modified: photo.modified, header: photo.header,
        nameRank: 0,
        run: catalog.count)
    }
    return catalog
  }

  func sorted(_ photos: [LocalPhoto], _ ordering: PhotoOrdering) -> [Int] {
    catalog(photos).merge(photos.indices, into: [], by: ordering)
  }

  func names(_ ordering: PhotoOrdering) -> [String] {
    sorted(photos, ordering).map { photos[$0].file.name }
  }

  @Test func sortsByTakenModifiedOrNameAndReverses() {
    #expect(names(PhotoOrdering(sort: .taken)) == ["a.jpg", "d.jpg", "c.jpg", "b.jpg"])
    #expect(names(PhotoOrdering(sort: .modified)) == ["b.jpg", "a.jpg", "d.jpg", "c.jpg"])
    #expect(names(PhotoOrdering(sort: .name)) == ["a.jpg", "b.jpg", "c.jpg", "d.jpg"])
    #expect(
      names(PhotoOrdering(sort: .taken, reverse: true)) == ["b.jpg", "c.jpg", "d.jpg", "a.jpg"])
    #expect(
      names(PhotoOrdering(sort: .name, reverse: true)) == ["d.jpg", "c.jpg", "b.jpg", "a.jpg"])
    // `-i`: the order the files came in, whatever their dates and names; no headers.
    let given = PhotoOrdering(sort: .given, grouping: .month)
    #expect(names(given) == ["b.jpg", "a.jpg", "c.jpg", "d.jpg"])
    #expect(given.grouping == .none)
    #expect(catalog(photos).sections(of: sorted(photos, given), by: given).isEmpty)
    #expect(
      names(PhotoOrdering(sort: .given, reverse: true)) == ["d.jpg", "c.jpg", "a.jpg", "b.jpg"])
  }

  @Test func sectionsPerDayOrMonthFollowTheOrder() {
    let byDay = PhotoOrdering(sort: .taken, grouping: .day)
    let order = sorted(photos, byDay)
    let catalog = catalog(photos)
    #expect(
      catalog.sections(of: order, by: byDay) == [
        PhotoSection(title: "1 May 2024", range: 0..<2),
        PhotoSection(title: "1 Jan 2024", range: 2..<3),
        PhotoSection(title: "31 Dec 2023", range: 3..<4),
      ])
    let byMonth = PhotoOrdering(sort: .taken, grouping: .month)
    #expect(
      catalog.sections(of: order, by: byMonth).map(\.title) == ["May 2024", "Jan 2024", "Dec 2023"])
    #expect(catalog.sections(of: order, by: PhotoOrdering(sort: .name, grouping: .day)).isEmpty)
    #expect(catalog.sections(of: order, by: PhotoOrdering(sort: .taken, grouping: .none)).isEmpty)
  }

  @Test func wallClockDaysBeforeNineteenSeventyAndLeapYears() {
    let time = WallClockTime(exif: "1969:12:31 23:00:00")!
    #expect(time.day == -1)
    #expect(time.dayTitle == "31 Dec 1969")
    #expect(WallClockTime(exif: "2000:02:29 00:00:00")?.dayTitle == "29 Feb 2000")
    #expect(WallClockTime(exif: "1900:02:29 00:00:00") == nil)
    // A file modified at 23:30 UTC is on the next day in Tokyo.
    let date = Date(
      timeIntervalSince1970: Double(WallClockTime(exif: "2024:05:01 23:30:00")!.seconds))
    #expect(WallClockTime(date, in: TimeZone(identifier: "Asia/Tokyo")!).dayTitle == "2 May 2024")
  }
}
