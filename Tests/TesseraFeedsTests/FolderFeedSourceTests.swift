import Foundation
import TesseraImageSynthesis
import TesseraPhotoFormats
import TesseraPhotoLibrary
import TesseraTestSupport
import TesseraUtilities
import Testing

@testable import TesseraFeeds

@Suite(.timeLimit(.minutes(1))) struct FolderFeedSourceTests {
  /// A 1×1 GIF, byte for byte.
  static let gif: [UInt8] = [
    0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 0x01, 0x00, 0x01, 0x00, 0x80, 0x00, 0x00, 0xFF, 0xFF,
    0xFF, 0x00, 0x00, 0x00, 0x21, 0xF9, 0x04, 0x01, 0x00, 0x00, 0x00, 0x00, 0x2C, 0x00, 0x00,
    0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0x02, 0x02, 0x44, 0x01, 0x00, 0x3B,
  ]

  /// The server's photo `id` at size "t" (100 px) in `format`, seed 3.
  static func image(_ id: Int, _ format: ImageFormat) throws -> [UInt8] {
    try GeneratedImages.photo(id: id, size: "t", format: format, seed: 3).bytes
  }

  func write(_ bytes: [UInt8], _ name: String, in folder: URL, age: TimeInterval) throws {
    let file = folder.appendingPathComponent(name)
    try Data(bytes).write(to: file)
    try FileManager.default.setAttributes(
      [.modificationDate: Date(timeIntervalSince1970: 1_700_000_000 - age)], ofItemAtPath: file.path
    )
  }

  @Test func imagesNewestFirstWithTheirSizes() async throws {
    try await TemporaryFolder.with(prefix: "tessera-folder") { folder in
      try write(try Self.image(1, .jpeg), "old.jpg", in: folder, age: 300)
      try write(try Self.image(2, .png), "new.PNG", in: folder, age: 0)
      try write(try Self.image(3, .webp), "middle.webp", in: folder, age: 100)
      try write(Self.gif, "tiny.gif", in: folder, age: 200)
      try write(Array("notes".utf8), "notes.txt", in: folder, age: 0)
      try write(try Self.image(4, .jpeg), ".hidden.jpg", in: folder, age: 0)
      try FileManager.default.createDirectory(
        at: folder.appendingPathComponent("sub.jpg"), withIntermediateDirectories: false)
      let page = try FolderFeedSource.photos(in: folder)
      #expect(page.items.map(\.id) == ["new.PNG", "middle.webp", "tiny.gif", "old.jpg"])
      let first = try #require(page.items.first)
      #expect(first.mediaURL.isFileURL)
      #expect(first.title == "new")
      #expect(first.sizing == .fixed)
      #expect(first.mediaPixelSize == GeneratedImages.size(id: 2, size: "t", seed: 3))
      #expect(page.items[1].mediaPixelSize == GeneratedImages.size(id: 3, size: "t", seed: 3))
      #expect(page.items[2].mediaPixelSize == PixelSize(width: 1, height: 1))
      #expect(page.items[3].mediaPixelSize == GeneratedImages.size(id: 1, size: "t", seed: 3))
      #expect(first.mediaURL(covering: 10, 10) == first.mediaURL)
    }
  }

  /// A name that is not UTF-8 (Latin-1 "café") is listed and read by its bytes, as the walk
  /// lists it; before, Foundation's listing left it out.
  @Test func aNameThatIsNotUTF8IsListedAndRead() async throws {
    try await TemporaryFolder.with(prefix: "tessera-folder") { folder in
      let name = FileSystemName.string(Array("caf".utf8) + [0xE9] + Array(".gif".utf8))
      let path = FileSystemName.bytes(of: folder.path + "/" + name).map { CChar(bitPattern: $0) }
      let descriptor = (path + [0]).withUnsafeBufferPointer {
        open($0.baseAddress!, O_WRONLY | O_CREAT | O_EXCL, 0o644)
      }
      try #require(descriptor >= 0)
      _ = Self.gif.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
      close(descriptor)
      let page = try FolderFeedSource.photos(in: folder)
      #expect(page.items.map(\.id) == [name])
      #expect(page.items.first?.mediaPixelSize == PixelSize(width: 1, height: 1))
      #expect(page.skipped.isEmpty)
    }
  }

  @Test func missingFolderIsAClearError() {
    let path = "/nonexistent/tessera/\(UUID().uuidString)"
    #expect(throws: FeedError.unreadableFolder(path: path, reason: "it does not exist")) {
      try FolderFeedSource.photos(in: URL(fileURLWithPath: path))
    }
  }

  @Test func aFileIsNotAFolder() async throws {
    try await TemporaryFolder.with(prefix: "tessera-folder") { folder in
      try write(Self.gif, "a.gif", in: folder, age: 0)
      let file = folder.appendingPathComponent("a.gif")
      #expect(throws: FeedError.unreadableFolder(path: file.path, reason: "it is not a folder")) {
        try FolderFeedSource.photos(in: file)
      }
    }
  }

  @Test func aFolderWithoutImagesIsEmpty() async throws {
    try await TemporaryFolder.with(prefix: "tessera-folder") { folder in
      try write(Array("x".utf8), "readme.md", in: folder, age: 0)
      #expect(throws: FeedError.emptyFeed) { try FolderFeedSource.photos(in: folder) }
    }
  }

  @Test(.enabled(if: getuid() != 0, "root reads every folder"))
  func unreadableFolderSaysPermissionDenied() async throws {
    try await TemporaryFolder.with(prefix: "tessera-folder") { folder in
      let locked = folder.appendingPathComponent("locked")
      try FileManager.default.createDirectory(at: locked, withIntermediateDirectories: false)
      try FileManager.default.setAttributes([.posixPermissions: 0], ofItemAtPath: locked.path)
      defer {
        try? FileManager.default.setAttributes(
          [.posixPermissions: 0o700], ofItemAtPath: locked.path)
      }
      #expect(throws: FeedError.unreadableFolder(path: locked.path, reason: "permission denied")) {
        try FolderFeedSource.photos(in: locked)
      }
    }
  }

  @Test func headerReaderRefusesGarbage() {
    #expect(ImageHeader.pixelSize([]) == nil)
    #expect(ImageHeader.pixelSize(Array("hello world".utf8)) == nil)
    #expect(ImageHeader.pixelSize([0xFF, 0xD8, 0xFF, 0xE0, 0x00]) == nil)
    #expect(ImageHeader.pixelSize(Array(Self.gif.prefix(8))) == nil)
  }
}
