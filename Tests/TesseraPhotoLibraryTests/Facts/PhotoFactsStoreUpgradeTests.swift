import Foundation
import TesseraTestSupport
import TesseraUtilities
import Testing

@testable import TesseraPhotoFormats
@testable import TesseraPhotoLibrary

/// An upgrade keeps a person's facts store working: a file the previous format wrote is not
/// read, one line says so, the folder's headers are read again and the file is rewritten in
/// this format.
@MainActor
@Suite(.timeLimit(.minutes(1))) struct PhotoFactsStoreUpgradeTests {
  static let utc = TimeZone(identifier: "UTC")!
  static let folder = "/p/2023"
  static let files = [
    WalkedFile(path: "/p/2023/a.jpg", size: 10, modified: Date(timeIntervalSince1970: 1_000)),
    WalkedFile(path: "/p/2023/b.jpg", size: 20, modified: Date(timeIntervalSince1970: 2_000.5)),
  ]
  static let headers = [
    "/p/2023/a.jpg": PhotoHeader(
      pixelSize: PixelSize(width: 4000, height: 3000),
      exif: ExifFacts(
        taken: WallClockTime(exif: "2023:07:01 09:00:00"), model: "Pixel 8", orientation: 6,
        rating: 4)),
    "/p/2023/b.jpg": taken("2023:01:05 12:00:00"),
  ]

  /// Format 7's encoder as it was before format 8 (git show 0f6ad2e^:Sources/
  /// TesseraPhotoLibrary/Facts/PhotoFactsStore.swift), its first line included: size,
  /// modification time's bits, width, height, orientation, seconds taken, duration, "a", the
  /// EXIF rating, model, name.
  static func formatSeven(_ entries: [PhotoFactsStore.Entry], folder: String) -> Data {
    var text = "tessera-photo-facts 7" + "\n" + PhotoFactsStore.escape(folder) + "\n"
    for entry in entries {
      let header = entry.header
      let fields: [String] = [
        String(entry.size),
        String(entry.modified.timeIntervalSince1970.bitPattern, radix: 16),
        header.pixelSize.map { String($0.width) } ?? "",
        header.pixelSize.map { String($0.height) } ?? "",
        header.exif?.orientation.map { String($0) } ?? "",
        header.exif?.taken.map { String($0.seconds) } ?? "",
        header.duration.map {
          String(Int(clamping: $0 * 1_000, to: 0...PhotoFactsStore.maxDurationMilliseconds))
        } ?? "",
        header.isAnimated ? "a" : "",
        header.exif?.rating.map { String($0) } ?? "",
        PhotoFactsStore.escape(header.exif?.model ?? ""),
        PhotoFactsStore.escape(entry.name),
      ]
      text += fields.joined(separator: "\t") + "\n"
    }
    return Data(text.utf8)
  }

  /// Format 8's encoder as it was before format 9 (PhotoFactsStore.swift on main before the
  /// appended motion's two fields), its first line included: format 7's fields with the
  /// sidecar's rating, label, size, time and name before the model.
  static func formatEight(_ entries: [PhotoFactsStore.Entry], folder: String) -> Data {
    var text = "tessera-photo-facts 8" + "\n" + PhotoFactsStore.escape(folder) + "\n"
    for entry in entries {
      let header = entry.header
      let fields: [String] = [
        String(entry.size),
        String(entry.modified.timeIntervalSince1970.bitPattern, radix: 16),
        header.pixelSize.map { String($0.width) } ?? "",
        header.pixelSize.map { String($0.height) } ?? "",
        header.exif?.orientation.map { String($0) } ?? "",
        header.exif?.taken.map { String($0.seconds) } ?? "",
        header.duration.map {
          String(Int(clamping: $0 * 1_000, to: 0...PhotoFactsStore.maxDurationMilliseconds))
        } ?? "",
        header.isAnimated ? "a" : "",
        header.exif?.rating.map { String($0) } ?? "",
        header.culling?.rating.map { String($0) } ?? "",
        header.culling?.label.map { String($0.rawValue) } ?? "",
        entry.sidecar.map { String($0.size) } ?? "",
        entry.sidecar.map { String($0.modified.timeIntervalSince1970.bitPattern, radix: 16) } ?? "",
        PhotoFactsStore.escape(entry.sidecar?.name ?? ""),
        PhotoFactsStore.escape(header.exif?.model ?? ""),
        PhotoFactsStore.escape(entry.name),
      ]
      text += fields.joined(separator: "\t") + "\n"
    }
    return Data(text.utf8)
  }

  @Test(arguments: [7, 8])
  func anOlderFormatsFileIsSaidInTheLogAndRewrittenAfterTheWalk(format: Int) async throws {
    let directory = TemporaryFolder.make()
    defer { try? FileManager.default.removeItem(at: directory) }
    let lines = Locked<[String]>([])
    let store = PhotoFactsStore(directory: directory) { line in lines.withLock { $0.append(line) } }
    let entries = Self.files.map { file in
      PhotoFactsStore.Entry(
        name: file.name, size: file.size, modified: file.modified, header: Self.headers[file.path]!)
    }
    let old =
      format == 7
      ? Self.formatSeven(entries, folder: Self.folder)
      : Self.formatEight(entries, folder: Self.folder)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    try old.write(to: store.url(ofFolder: Self.folder))
    #expect(
      String(decoding: old, as: UTF8.self).split(separator: "\n").first
        == "tessera-photo-facts \(format)")
    // Read as no facts; nothing said until the store is asked for the folder.
    #expect(PhotoFactsStore.parse(old, folder: Self.folder).count == 0)
    #expect(lines.withLock { $0 }.isEmpty)

    let reader = TableHeaderReader(Self.headers)
    let library = await walk(store: store, reader: reader)
    // The walk read the folder's headers again, and said why, once.
    #expect(Set(reader.readOrder.withLock { $0 }) == Set(Self.files.map(\.path)))
    #expect(library.allPhotos.map(\.header) == Self.files.map { Self.headers[$0.path] })
    let path = store.url(ofFolder: Self.folder).path
    #expect(
      lines.withLock { $0 } == [
        "photo facts: \(path) is format \(format), this Tessera writes \(PhotoFactsStore.format); "
          + "reading that folder's headers again"
      ])

    // The file is in this format now, with both photos' facts; the next walk reads no header and
    // says nothing.
    let rewritten = try Data(contentsOf: store.url(ofFolder: Self.folder))
    #expect(
      String(decoding: rewritten, as: UTF8.self).split(separator: "\n").first
        == "tessera-photo-facts \(PhotoFactsStore.format)")
    let facts = store.facts(ofFolder: Self.folder)
    for file in Self.files {
      #expect(facts.header(of: file) == Self.headers[file.path])
    }
    let again = TableHeaderReader([:])
    _ = await walk(store: store, reader: again)
    #expect(again.readOrder.withLock { $0 }.isEmpty)
    #expect(lines.withLock { $0.count } == 1)
  }

  /// The line names the format whatever it is, a newer one too (a downgrade); a first line
  /// of anything else is not a format.
  @Test func otherFormatsAreNamedAndNothingElseIs() {
    #expect(PhotoFactsStore.otherFormat(of: Data("tessera-photo-facts 7\n/p\n".utf8)) == 7)
    let newer = PhotoFactsStore.format + 1
    #expect(PhotoFactsStore.otherFormat(of: Data("tessera-photo-facts \(newer)\n".utf8)) == newer)
    #expect(PhotoFactsStore.otherFormat(of: Data("tessera-photo-facts 8\n/p\n".utf8)) == 8)
    #expect(PhotoFactsStore.otherFormat(of: Data("tessera-photo-facts 9\n/p\n".utf8)) == 9)
    #expect(
      PhotoFactsStore.otherFormat(
        of: Data("tessera-photo-facts \(PhotoFactsStore.format)\n/p\n".utf8)) == nil)
    #expect(PhotoFactsStore.otherFormat(of: Data("tessera-photo-facts -1\n".utf8)) == nil)
    #expect(PhotoFactsStore.otherFormat(of: Data("tessera-photo-facts 1234567890\n".utf8)) == nil)
    #expect(PhotoFactsStore.otherFormat(of: Data("something else\n".utf8)) == nil)
  }

  func walk(store: PhotoFactsStore, reader: TableHeaderReader) async -> PhotoLibrary {
    let walker = ControlledWalker()
    let library = PhotoLibrary(walker: walker, headerReader: reader, facts: store, zone: Self.utc)
    library.provisionalOrderDelay = .seconds(3_600)
    let observer = LibraryObserver(library)
    let walk = Task { await library.start() }
    walker.release(WalkBatch(files: Self.files, foldersWalked: 1, finished: true))
    await walk.value
    await observer.wait { library.progress.headersRead == Self.files.count }
    await library.factsStored()
    return library
  }
}
