import Foundation
import TesseraPhotoFormats
import TesseraTestSupport
import TesseraUtilities
import Testing

@testable import TesseraPhotoLibrary

/// A walk reads each photo's sidecar with its header, keeps what it says in the catalog and
/// the facts store, and reads it again only when the sidecar changed.
@MainActor
@Suite(.timeLimit(.minutes(1))) struct PhotoLibraryCullingTests {
  /// The real reader, counting what it reads.
  final class CountingReader: PhotoHeaderReading, @unchecked Sendable {
    let reads = Locked<[String]>([])
    func header(ofFileAt path: String) -> PhotoHeader? {
      reads.withLock { $0.append((path as NSString).lastPathComponent) }
      return LocalPhotoHeaderReader().header(ofFileAt: path)
    }
    func culling(ofSidecarAt path: String) -> PhotoCulling? {
      reads.withLock { $0.append((path as NSString).lastPathComponent) }
      return LocalPhotoHeaderReader().culling(ofSidecarAt: path)
    }
  }

  func walk(
    _ root: URL, store: PhotoFactsStore, reader: CountingReader
  ) async -> [String: PhotoHeader] {
    let library = PhotoLibrary(
      walker: FolderWalker(roots: [root.path]), headerReader: reader, facts: store)
    let observer = LibraryObserver(library)
    await library.start()
    await observer.wait {
      library.progress.walkFinished && library.progress.headersRead >= library.count
    }
    await library.factsStored()
    var headers: [String: PhotoHeader] = [:]
    for photo in library.allPhotos { headers[photo.file.name] = photo.header ?? PhotoHeader() }
    return headers
  }

  /// A library over `photos` reading with a `CountingReader`, its walk and headers done.
  func started(_ photos: URL, store: PhotoFactsStore) async -> PhotoLibrary {
    let library = PhotoLibrary(
      walker: FolderWalker(roots: [photos.path]), headerReader: CountingReader(), facts: store)
    let observer = LibraryObserver(library)
    await library.start()
    await observer.wait {
      library.progress.walkFinished && library.progress.headersRead >= library.count
    }
    return library
  }

  func jpeg(_ name: String, in root: URL, exifRating: Int? = nil) throws {
    let pixels = [UInt8](repeating: 128, count: 16 * 16 * 4)
    let bytes = try #require(JPEGWriter.encode(rgba: pixels, width: 16, height: 16, quality: 80))
    let path = root.appendingPathComponent(name).path
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    if let exifRating {
      try ExifTool.run(["-q", "-overwrite_original", "-IFD0:Rating=\(exifRating)", path])
    }
  }

  func sidecar(_ name: String, in root: URL, _ tags: [String]) throws {
    let path = root.appendingPathComponent(name).path
    try? FileManager.default.removeItem(atPath: path)
    try ExifTool.run(["-q", "-o", path] + tags)
  }

  @Test func theSidecarWinsOverTheCameraAndIsReadAgainOnlyWhenItChanges() async throws {
    let root = TemporaryFolder.make(prefix: "tessera-culling")
    defer { try? FileManager.default.removeItem(at: root) }
    do {
      let photos = root.appendingPathComponent("shoot")
      try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
      try jpeg("camera.jpg", in: photos, exifRating: 2)
      try jpeg("rated.jpg", in: photos, exifRating: 1)
      try sidecar("rated.jpg.xmp", in: photos, ["-XMP-xmp:Rating=4", "-XMP-xmp:Label=Red"])
      try jpeg("rejected.jpg", in: photos)
      try sidecar("rejected.xmp", in: photos, ["-XMP-xmp:Rating=-1"])
      try jpeg("labelled.jpg", in: photos)
      try sidecar("labelled.xmp", in: photos, ["-XMP-xmp:Label=Second pick"])
      try jpeg("tagged.jpg", in: photos)
      try sidecar(
        "tagged.jpg.xmp", in: photos,
        ["-XMP-dc:Subject=wedding", "-XMP-dc:Subject=Ann", "-XMP-digiKam:TagsList=People/Ann"])
      let store = PhotoFactsStore(directory: root.appendingPathComponent("facts"))

      let first = CountingReader()
      let headers = await walk(photos, store: store, reader: first)
      #expect(headers["camera.jpg"]?.rating == 2)
      #expect(headers["camera.jpg"]?.culling == nil)
      #expect(headers["rated.jpg"]?.culling == PhotoCulling(rating: 4, label: .red))
      #expect(headers["rated.jpg"]?.rating == 4)  // the sidecar over the camera's 1
      #expect(headers["rejected.jpg"]?.rating == PhotoCulling.rejected)
      #expect(headers["labelled.jpg"]?.culling == PhotoCulling(label: .other))
      #expect(headers["labelled.jpg"]?.rating == nil)
      // Tags alone are a culling too, kept with the walk (and in the store, read back below).
      #expect(
        headers["tagged.jpg"]?.culling == PhotoCulling(tags: ["wedding", "Ann", "People/Ann"]))
      #expect(first.reads.withLock { $0.count } == 9, "\(first.reads.withLock { $0 })")

      // A second look reads nothing and knows it all.
      let second = CountingReader()
      #expect(await walk(photos, store: store, reader: second) == headers)
      #expect(second.reads.withLock { $0 }.isEmpty, "\(second.reads.withLock { $0 })")

      // The person rates again in darktable: that photo and its sidecar are read again.
      try sidecar("rated.jpg.xmp", in: photos, ["-XMP-xmp:Rating=5", "-XMP-xmp:Label=Green"])
      let later = Date().addingTimeInterval(5)
      try FileManager.default.setAttributes(
        [.modificationDate: later],
        ofItemAtPath: photos.appendingPathComponent("rated.jpg.xmp").path)
      let third = CountingReader()
      let again = await walk(photos, store: store, reader: third)
      #expect(third.reads.withLock { $0 }.sorted() == ["rated.jpg", "rated.jpg.xmp"])
      #expect(again["rated.jpg"]?.culling == PhotoCulling(rating: 5, label: .green))

      // A sidecar removed: the camera's rating counts again.
      try FileManager.default.removeItem(at: photos.appendingPathComponent("rated.jpg.xmp"))
      let fourth = CountingReader()
      let without = await walk(photos, store: store, reader: fourth)
      #expect(fourth.reads.withLock { $0 } == ["rated.jpg"])
      #expect(without["rated.jpg"]?.culling == nil)
      #expect(without["rated.jpg"]?.rating == 1)
    }
  }

  @Test func aChangeIsShownStoredWithTheFolderAndUndone() async throws {
    let root = TemporaryFolder.make(prefix: "tessera-culling")
    defer { try? FileManager.default.removeItem(at: root) }
    do {
      let photos = root.appendingPathComponent("shoot")
      try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
      try jpeg("a.jpg", in: photos)
      try jpeg("p.JPG", in: photos)
      try Data(RawFixtures.cr2(orientation: 1)).write(to: photos.appendingPathComponent("p.CR2"))
      let store = PhotoFactsStore(directory: root.appendingPathComponent("facts"))
      let library = await started(photos, store: store)
      let names = library.allPhotos.map(\.file.name)
      let a = try #require(names.firstIndex(of: "a.jpg"))
      let pair = try #require(names.firstIndex(of: "p.JPG"))

      let rated = await library.cull(.rating(3), photos: [a])
      #expect(rated.photosChanged == 1 && rated.failures.isEmpty)
      #expect(library.changedPhotos == [a])
      #expect(library.catalog.photo(at: a).header?.culling == PhotoCulling(rating: 3))
      #expect(library.catalog.photo(at: a).file.sidecar?.name == "a.jpg.xmp")
      let labelled = await library.cull(.label(.green), photos: [pair])
      #expect(labelled.photosChanged == 1 && labelled.undo.photoCount == 1)
      for name in ["p.JPG.xmp", "p.CR2.xmp"] {
        #expect(
          CountingReader().culling(ofSidecarAt: photos.appendingPathComponent(name).path)
            == PhotoCulling(label: .green), "\(name)")
      }
      await library.factsStored()

      // The next look takes both from the store: the sidecars' new stamps were kept.
      let reader = CountingReader()
      let again = await walk(photos, store: store, reader: reader)
      #expect(reader.reads.withLock { $0 }.isEmpty, "\(reader.reads.withLock { $0 })")
      #expect(again["a.jpg"]?.culling == PhotoCulling(rating: 3))
      #expect(again["p.JPG"]?.culling == PhotoCulling(label: .green))

      // Undone: the sidecars Tessera made are gone, and the photos say nothing again.
      let undone = await library.undo(labelled.undo)
      #expect(undone.failures.isEmpty)
      #expect(library.catalog.photo(at: pair).header?.culling == nil)
      #expect(library.catalog.photo(at: pair).file.sidecar == nil)
      _ = await library.undo(rated.undo)
      let left = try FileManager.default.contentsOfDirectory(atPath: photos.path).sorted()
      #expect(left == ["a.jpg", "p.CR2", "p.JPG"], "\(left)")
    }
  }

  /// A photo whose own file holds a label, tags and a title (Lightroom wrote them into the
  /// JPEG) keeps showing them when a key makes its first sidecar: the sidecar starts with
  /// them; the photo is not written; an undo takes the sidecar away and the file's say is
  /// back; the store keeps the file's say without a sidecar.
  @Test func aPhotosOwnLabelAndTagsGoIntoTheSidecarAKeyMakes() async throws {
    let root = TemporaryFolder.make(prefix: "tessera-culling-own")
    defer { try? FileManager.default.removeItem(at: root) }
    do {
      let photos = root.appendingPathComponent("shoot")
      try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
      try jpeg("own.jpg", in: photos)
      let path = photos.appendingPathComponent("own.jpg").path
      try ExifTool.run([
        "-q", "-overwrite_original", "-XMP-xmp:Label=Blue", "-XMP-dc:Subject=wedding",
        "-XMP-dc:Title=Harbour", path,
      ])
      let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
      let own = PhotoCulling(label: .blue, tags: ["wedding"], title: "Harbour")
      let store = PhotoFactsStore(directory: root.appendingPathComponent("facts"))
      let library = await started(photos, store: store)
      #expect(library.catalog.photo(at: 0).header?.culling == own)

      let rated = await library.cull(.rating(3), photos: [0])
      #expect(rated.photosChanged == 1 && rated.failures.isEmpty, "\(rated.failures)")
      var withRating = own
      withRating.rating = 3
      #expect(library.catalog.photo(at: 0).header?.culling == withRating)
      let written = try ExifTool.run([
        "-s3", "-XMP-xmp:Rating", "-XMP-xmp:Label", "-XMP-dc:Subject", "-XMP-dc:Title",
        path + ".xmp",
      ])
      #expect(written.split(separator: "\n") == ["3", "Blue", "wedding", "Harbour"], "\(written)")
      #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)

      _ = await library.undo(rated.undo)
      #expect(!FileManager.default.fileExists(atPath: path + ".xmp"))
      #expect(library.catalog.photo(at: 0).header?.culling == own)
      await library.factsStored()
      let reader = CountingReader()
      let again = await walk(photos, store: store, reader: reader)
      #expect(reader.reads.withLock { $0 }.isEmpty, "\(reader.reads.withLock { $0 })")
      #expect(again["own.jpg"]?.culling == own)
    }
  }

  /// A sidecar that is no XMP, too large, or says nothing gives no culling; the photo's own
  /// facts stay.
  @Test func anUnreadableSidecarLosesNothingElse() async throws {
    let root = TemporaryFolder.make(prefix: "tessera-culling")
    defer { try? FileManager.default.removeItem(at: root) }
    do {
      try jpeg("a.jpg", in: root, exifRating: 3)
      try Data("not xml at all <<<".utf8).write(to: root.appendingPathComponent("a.xmp"))
      try jpeg("b.jpg", in: root)
      try Data(count: XMPPacket.maxPacketBytes + 1).write(to: root.appendingPathComponent("b.xmp"))
      let reader = CountingReader()
      let headers = await walk(
        root, store: PhotoFactsStore(directory: root.appendingPathComponent("facts")),
        reader: reader)
      #expect(headers["a.jpg"]?.culling == nil)
      #expect(headers["a.jpg"]?.rating == 3)
      #expect(headers["a.jpg"]?.pixelSize == PixelSize(width: 16, height: 16))
      #expect(headers["b.jpg"]?.culling == nil)
      #expect(headers["b.jpg"]?.pixelSize == PixelSize(width: 16, height: 16))
    }
  }
}
