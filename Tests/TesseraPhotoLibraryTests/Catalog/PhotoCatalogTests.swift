import Foundation
import TesseraGeometry
import Testing

@testable import TesseraPhotoFormats
@testable import TesseraPhotoLibrary

@Suite struct PhotoCatalogTests {
  static let utc = TimeZone(identifier: "UTC")!

  func walked(_ path: String, modified: TimeInterval = 1_700_000_000.25) -> WalkedFile {
    WalkedFile(path: path, size: 3_456_789, modified: Date(timeIntervalSince1970: modified))
  }

  @Test func aPhotoReadsBackAsItWasAdded() {
    let catalog = PhotoCatalog()
    let headers: [PhotoHeader?] = [
      PhotoHeader(
        pixelSize: PixelSize(width: 3000, height: 4000),
        exif: ExifFacts(
          taken: WallClockTime(exif: "2024:05:01 14:30:00"), model: "Pixel 8", orientation: 6)),
      PhotoHeader(pixelSize: PixelSize(width: 640, height: 480)),
      PhotoHeader(exif: ExifFacts(model: "Pixel 8")),
      PhotoHeader(),
      nil,
      // Videos: a duration, the shortest and the longest kept.
      PhotoHeader(
        exif: ExifFacts(taken: WallClockTime(exif: "2021:06:05 12:20:30")), duration: 42.5),
      PhotoHeader(duration: 0.01),
      PhotoHeader(duration: VideoFacts.maxDuration),
      // An animation.
      PhotoHeader(pixelSize: PixelSize(width: 320, height: 240), isAnimated: true),
    ]
    var expected: [LocalPhoto] = []
    for (number, header) in headers.enumerated() {
      let file = walked("/photos/2024/Grüße \(number).jpg")
      let photo = LocalPhoto(file: file, header: header, zone: Self.utc)
      expected.append(photo)
      let index = catalog.append(
        file, folder: file.folder, modified: photo.modified, header: header, nameRank: 0,
        run: number)
      #expect(index == number)
    }
    #expect(catalog.count == headers.count)
    for index in expected.indices {
      #expect(catalog.photo(at: index) == expected[index])
      #expect(catalog.path(at: index) == expected[index].file.path)
      #expect(catalog.pixelSize(at: index) == expected[index].header?.pixelSize)
    }
    // An unread photo's header, once read, reads back with it.
    let read = PhotoHeader(exif: ExifFacts(taken: WallClockTime(exif: "2001:01:01 00:00:00")))
    catalog.setHeader(read, at: 4)
    #expect(catalog.photo(at: 4) == expected[4].reading(read))
    #expect(catalog.headerRead(at: 4))
    // A video's duration lives in the record's padding: no photo pays for it.
    #expect(MemoryLayout<PhotoCatalog.Record>.stride == 96)
  }

  /// Photos taken in the same second sort by folder, then name; names alike in their first
  /// 8 bytes are compared in full, read back from disk.
  @Test func tiesGoByFolderThenName() {
    let paths = [
      "/b/x.jpg", "/a/y.jpg", "/a/IMG_20240501_2.jpg", "/a/IMG_20240501_10.jpg",
      "/a b/z.jpg",
    ]
    let catalog = PhotoCatalog()
    for path in paths {
      let file = walked(path)
      _ = catalog.append(
        file, folder: file.folder, modified: WallClockTime(file.modified, in: Self.utc),
        header: nil, nameRank: 0, run: catalog.count)
    }
    let order = catalog.merge(paths.indices, into: [], by: PhotoOrdering(sort: .taken))
    #expect(
      order.map { paths[$0] } == [
        "/a/IMG_20240501_10.jpg", "/a/IMG_20240501_2.jpg", "/a/y.jpg", "/a b/z.jpg", "/b/x.jpg",
      ])
    let reversed = catalog.merge(
      paths.indices, into: [], by: PhotoOrdering(sort: .taken, reverse: true))
    #expect(reversed == order.reversed())
  }

  /// `--sort rating`: the sidecar's rating over the camera's, five stars first, unrated after
  /// one star, rejected last; equal ratings newest first; a header per rating.
  @Test func byRatingTheRatingThatCountsThenTheDateTaken() {
    // (name, sidecar's rating, camera's rating, day taken)
    let photos: [(String, Int?, Int?, Int)] = [
      ("unrated.jpg", nil, nil, 1), ("camera3.jpg", nil, 3, 2), ("sidecar5.jpg", 5, 1, 3),
      ("reject.jpg", -1, 5, 4), ("old5.jpg", 5, nil, 1), ("zero.jpg", 0, 4, 5),
      ("one.jpg", 1, nil, 6),
    ]
    let catalog = PhotoCatalog()
    for (name, culled, camera, day) in photos {
      let file = walked("/shoot/\(name)")
      var header = PhotoHeader(
        exif: ExifFacts(
          taken: WallClockTime(exif: "2024:05:0\(day) 10:00:00"), rating: camera))
      header.culling = culled.map { PhotoCulling(rating: $0) }
      _ = catalog.append(
        file, folder: file.folder, modified: WallClockTime(file.modified, in: Self.utc),
        header: header, nameRank: 0, run: catalog.count)
    }
    let byRating = PhotoOrdering(sort: .rating)
    let order = catalog.merge(photos.indices, into: [], by: byRating)
    #expect(
      order.map { photos[$0].0 } == [
        "sidecar5.jpg", "old5.jpg", "camera3.jpg", "one.jpg", "zero.jpg", "unrated.jpg",
        "reject.jpg",
      ])
    let sections = catalog.sections(of: order, by: byRating)
    #expect(sections.map(\.title) == ["★★★★★", "★★★", "★", "no stars", "rejected"])
    #expect(sections.map(\.range.count) == [2, 1, 1, 2, 1])
    let reversed = catalog.merge(
      photos.indices, into: [], by: PhotoOrdering(sort: .rating, reverse: true))
    #expect(reversed == order.reversed())
  }

  @Test func byNameNamesWithALongCommonStartAreComparedInFull() {
    let names = [
      "Screenshot from 2024-05-02.png", "Screenshot from 2024-05-01.png", "IMG_1.jpg",
      "Screenshot from 2024-05-01 (2).png",
    ]
    let catalog = PhotoCatalog()
    for (number, name) in names.enumerated() {
      let file = walked("/shots/\(name)", modified: Double(number))
      _ = catalog.append(
        file, folder: file.folder, modified: WallClockTime(file.modified, in: Self.utc),
        header: nil, nameRank: 0, run: catalog.count)
    }
    let byName = PhotoOrdering(sort: .name)
    // Incoming photos merge into an order already published.
    let first = catalog.merge([0, 1], into: [], by: byName)
    let order = catalog.merge([2, 3], into: first, by: byName)
    #expect(order.map { names[$0] } == names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
  }

  /// Photos of one folder listing taken in the same second are ordered by their names' ranks
  /// in that listing, with no name read back; given one by one (runs of their own), the same
  /// order comes from names read from disk.
  @Test func aFolderListingsNamesAreRankedNotReadBack() {
    let names = (0..<200).map { "IMG_20240501_\(($0 * 7_919) % 1_000)_\($0).jpg" }
    let files = names.map { walked("/camera/\($0)") }
    let ranks = PhotoCatalog.nameRanks(of: files.map(\.nameSlice.utf8))
    let listed = PhotoCatalog()
    let oneByOne = PhotoCatalog()
    for (offset, file) in files.enumerated() {
      let modified = WallClockTime(file.modified, in: Self.utc)
      _ = listed.append(
        file, folder: file.folder, modified: modified, header: nil, nameRank: ranks[offset],
        run: 0)
      _ = oneByOne.append(
        file, folder: file.folder, modified: modified, header: nil, nameRank: 0, run: offset)
    }
    let expected = names.indices.sorted { names[$0].utf8.lexicographicallyPrecedes(names[$1].utf8) }
    let taken = PhotoOrdering(sort: .taken)
    #expect(listed.merge(names.indices, into: [], by: taken) == expected)
    #expect(listed.namesReadBack == 0)
    #expect(oneByOne.merge(names.indices, into: [], by: taken) == expected)
    #expect(oneByOne.namesReadBack > 0)
  }

  /// A path found twice is one photo; a path's identifier is the same in a second walk's
  /// catalog and short enough to be held without an allocation.
  @Test func aPathIsOnePhotoWithAnIdentifierThatOutlivesItsCatalog() {
    let paths = (0..<1_000).map { "/photos/\($0 / 100)/IMG_\($0).jpg" }
    let first = PhotoCatalog()
    let second = PhotoCatalog()
    for path in paths {
      let file = walked(path)
      #expect(
        first.append(
          file, folder: file.folder, modified: .init(seconds: 0), header: nil, nameRank: 0, run: 0)
          != nil)
    }
    for path in paths.reversed() {
      let file = walked(path)
      _ = second.append(
        file, folder: file.folder, modified: .init(seconds: 0), header: nil, nameRank: 0, run: 0)
    }
    let again = walked(paths[10])
    #expect(
      first.append(
        again, folder: again.folder, modified: .init(seconds: 0), header: nil, nameRank: 0, run: 0)
        == nil)
    #expect(first.count == paths.count)
    let ids = paths.indices.map { first.identifier(at: $0) }
    #expect(Set(ids).count == paths.count)
    #expect(ids.allSatisfy { $0.utf8.count <= 15 })
    #expect(paths.indices.map { second.identifier(at: paths.count - 1 - $0) } == ids)
  }

  /// Paths whose hashes collide are still told apart: each is a photo of its own, a repeat
  /// is found, and their ids stay unique (the engine refuses duplicate ids).
  @Test func pathsOfOneHashAreStillToldApart() {
    let catalog = PhotoCatalog(hashingPathsWith: { _ in 42 })
    let paths = (0..<50).map { "/photos/IMG_\($0).jpg" }
    func add(_ path: String) -> Int? {
      let file = walked(path)
      return catalog.append(
        file, folder: file.folder, modified: .init(seconds: 0), header: nil, nameRank: 0, run: 0)
    }
    #expect(paths.map(add) == Array(0..<50))
    #expect(add(paths[0]) == nil)
    #expect(add(paths[49]) == nil)
    #expect(catalog.count == 50)
    let ids = (0..<50).map { catalog.identifier(at: $0) }
    #expect(Set(ids).count == 50)
    #expect(ids.allSatisfy { $0.utf8.count <= 15 })
    #expect((0..<50).map { catalog.path(at: $0) } == paths)
  }

  @Test func mergeKeepsBothSortedHalves() {
    #expect(PhotoCatalog.merge([1, 3, 5], [2, 4, 6], by: <) == [1, 2, 3, 4, 5, 6])
    #expect(PhotoCatalog.merge([], [2], by: <) == [2])
    #expect(PhotoCatalog.merge([1], [], by: <) == [1])
  }
}
