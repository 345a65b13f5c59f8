import Foundation
import TesseraPhotoFormats
import TesseraPhotoLibrary
import TesseraTestSupport
import Testing

@testable import TesseraFeeds

#if canImport(Glibc)
  import Glibc
#endif

/// A folder is read without following symlinks, without blocking on FIFOs and without reading
/// more than a header: what is not a plain image file is skipped with the reason.
@Suite(.timeLimit(.minutes(1))) struct LocalFileTests {
  func writeGIF(_ name: String, in folder: URL) throws {
    try Data(FolderFeedSourceTests.gif).write(to: folder.appendingPathComponent(name))
  }

  func reasons(_ page: FeedPage<Photo>) -> [String] {
    page.skipped.compactMap {
      if case .invalid(let why) = $0.reason { return why }
      return nil
    }
  }

  @Test func symlinksAreSkippedWithTheReason() async throws {
    try await TemporaryFolder.with(prefix: "tessera-local") { folder in
      try writeGIF("real.gif", in: folder)
      try FileManager.default.createSymbolicLink(
        atPath: folder.appendingPathComponent("link.gif").path,
        withDestinationPath: folder.appendingPathComponent("real.gif").path)
      try FileManager.default.createSymbolicLink(
        atPath: folder.appendingPathComponent("secrets.jpg").path,
        withDestinationPath: "/etc/passwd")
      let page = try FolderFeedSource.photos(in: folder)
      #expect(page.items.map(\.id) == ["real.gif"])
      #expect(
        reasons(page) == ["“link.gif” is a symbolic link", "“secrets.jpg” is a symbolic link"])
    }
  }

  /// A FIFO named like an image: opening it for reading would block forever without
  /// O_NONBLOCK. The suite's time limit turns a block into a failure.
  @Test func aFIFOIsSkippedAndNeverBlocks() async throws {
    try await TemporaryFolder.with(prefix: "tessera-local") { folder in
      try writeGIF("real.gif", in: folder)
      let fifo = folder.appendingPathComponent("pipe.png").path
      #expect(mkfifo(fifo, 0o600) == 0)
      let source = FolderFeedSource(folder: folder)
      let page = try await source.fetch(page: 1)
      #expect(page.items.map(\.id) == ["real.gif"])
      #expect(
        page.skipped.map(\.description) == [
          "item 0 is invalid: “pipe.png” is not a regular file (it is a FIFO)"
        ])
    }
  }

  /// A sparse file past `FeedLimits.maxLocalFileBytes`: refused on its `fstat` size, nothing
  /// read.
  @Test func oversizedFilesAreSkipped() async throws {
    try await TemporaryFolder.with(prefix: "tessera-local") { folder in
      try writeGIF("real.gif", in: folder)
      let huge = folder.appendingPathComponent("huge.jpg").path
      #expect(FileManager.default.createFile(atPath: huge, contents: Data([0xFF, 0xD8])))
      #expect(truncate(huge, off_t(FeedLimits.maxLocalFileBytes + 1)) == 0)
      let page = try FolderFeedSource.photos(in: folder)
      #expect(page.items.map(\.id) == ["real.gif"])
      #expect(reasons(page) == ["“huge.jpg” is larger than 256 MiB"])
    }
  }

  @Test func aFolderOfOnlyBadEntriesSaysWhy() async throws {
    try await TemporaryFolder.with(prefix: "tessera-local") { folder in
      try FileManager.default.createSymbolicLink(
        atPath: folder.appendingPathComponent("a.jpg").path, withDestinationPath: "/etc/passwd")
      #expect(
        throws: FeedError.unreadableFolder(
          path: folder.path, reason: "no image in it could be read: “a.jpg” is a symbolic link")
      ) { try FolderFeedSource.photos(in: folder) }
    }
  }

  @Test func readingStopsAtTheLimit() async throws {
    try await TemporaryFolder.with(prefix: "tessera-local") { folder in
      let file = folder.appendingPathComponent("big.gif")
      try Data(FolderFeedSourceTests.gif + [UInt8](repeating: 0, count: 100_000)).write(to: file)
      let prefix = try LocalFile.readPrefix(path: file.path, limit: 1_000, maxFileSize: 1 << 20)
        .get()
      #expect(prefix.bytes.count == 1_000)
      #expect(prefix.size == FolderFeedSourceTests.gif.count + 100_000)
      #expect(throws: LocalFileRefusal.tooLarge(limit: 50_000)) {
        try LocalFile.readPrefix(path: file.path, limit: 10, maxFileSize: 50_000).get()
      }
      #expect(throws: LocalFileRefusal.notRegularFile(kind: "a folder")) {
        try LocalFile.readPrefix(path: folder.path, limit: 10, maxFileSize: 50_000).get()
      }
    }
  }

  @Test func theHeaderReaderRefusesLinksToo() async throws {
    try await TemporaryFolder.with(prefix: "tessera-local") { folder in
      try writeGIF("real.gif", in: folder)
      let link = folder.appendingPathComponent("link.gif")
      try FileManager.default.createSymbolicLink(
        atPath: link.path, withDestinationPath: folder.appendingPathComponent("real.gif").path)
      #expect(ImageHeader.pixelSize(of: folder.appendingPathComponent("real.gif")) != nil)
      #expect(ImageHeader.pixelSize(of: link) == nil)
    }
  }
}
