import Foundation
import TesseraPhotoFormats
import TesseraTestSupport
import TesseraUtilities
import Testing

@testable import TesseraPhotoLibrary

#if canImport(Glibc)
  import Glibc
#endif

@Suite(.timeLimit(.minutes(1))) struct FolderWalkerTests {
  func touch(_ path: String, in root: URL) throws {
    let url = root.appendingPathComponent(path)
    try FileManager.default.createDirectory(
      at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data([0xFF, 0xD8, 0xFF, 0xD9]).write(to: url)
  }

  /// Every batch of a walk, synchronously.
  func walk(_ walker: FolderWalker) -> [WalkBatch] {
    var batches: [WalkBatch] = []
    walker.walk { batch in
      batches.append(batch)
      return true
    }
    return batches
  }

  func relativePaths(_ batches: [WalkBatch], under root: URL) -> [String] {
    batches.flatMap(\.files).map { String($0.path.dropFirst(root.path.count + 1)) }.sorted()
  }

  @Test func walksSubfoldersSkipsHiddenAndOtherFilesUnlessAsked() async throws {
    try await TemporaryFolder.with(prefix: "tessera-walk") { root in
      for path in [
        "a.jpg", "b.PNG", "notes.txt", "2024/05/c.heic", "2024/05/d.webp", ".hidden.jpg",
        ".cache/e.jpg", "2024/.thumbs/f.jpg",
      ] { try touch(path, in: root) }
      let visible = walk(FolderWalker(roots: [root.path]))
      #expect(
        relativePaths(visible, under: root) == [
          "2024/05/c.heic", "2024/05/d.webp", "a.jpg", "b.PNG",
        ])
      #expect(visible.last?.finished == true)
      #expect(visible.last?.foldersWalked == 3)
      #expect(visible.flatMap(\.problems).isEmpty)
      let all = walk(FolderWalker(roots: [root.path], includeHidden: true))
      #expect(relativePaths(all, under: root).count == 7)
      #expect(relativePaths(all, under: root).contains("2024/.thumbs/f.jpg"))
    }
  }

  /// A name that is not UTF-8 (Latin-1 "é") is listed and its file read by its own bytes;
  /// it silently did not appear before.
  @Test func aNameThatIsNotUTF8IsListedAndRead() async throws {
    try await TemporaryFolder.with(prefix: "tessera-walk-bytes") { root in
      let raw = Array((root.path + "/caf").utf8) + [0xE9] + Array(".jpg".utf8)
      let descriptor = (raw.map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer {
        open($0.baseAddress!, O_WRONLY | O_CREAT | O_EXCL, 0o600)
      }
      try #require(descriptor >= 0, "errno \(errno)")
      let photo = ExifWriter(dateTaken: "2020:01:02 03:04:05").jpeg()
      _ = photo.withUnsafeBytes { write(descriptor, $0.baseAddress, photo.count) }
      close(descriptor)
      let files = walk(FolderWalker(roots: [root.path])).flatMap(\.files)
      try #require(files.count == 1)
      #expect(FileSystemName.bytes(of: files[0].path) == raw)
      let header = LocalPhotoHeaderReader().header(ofFileAt: files[0].path)
      #expect(header?.exif?.taken?.descriptionWithSeconds == "2020-01-02 03:04:05")
    }
  }

  /// RAW+JPEG: one photo, the JPEG, naming its RAW; a RAW alone is listed; a pair is made
  /// only within one folder and by the exact stem.
  @Test func aRawAndJpegOfOneNameAreOnePhoto() async throws {
    try await TemporaryFolder.with(prefix: "tessera-walk-raw") { root in
      for path in [
        "IMG_1.CR2", "IMG_1.JPG", "IMG_2.NEF", "img_3.jpg", "IMG_3.CR2", "sub/IMG_4.jpg",
        "IMG_4.ARW", "IMG_5.heic", "IMG_5.dng", "IMG_6.Cr2", "IMG_6.jpg",
      ] { try touch(path, in: root) }
      let files = walk(FolderWalker(roots: [root.path])).flatMap(\.files)
      let byName = Dictionary(uniqueKeysWithValues: files.map { ($0.name, $0.rawCompanion) })
      #expect(
        Set(byName.keys) == [
          "IMG_1.JPG", "IMG_2.NEF", "img_3.jpg", "IMG_3.CR2", "IMG_4.jpg", "IMG_4.ARW",
          "IMG_5.heic", "IMG_6.Cr2", "IMG_6.jpg",
        ])
      #expect(byName["IMG_1.JPG"] == .some("IMG_1.CR2"))
      #expect(byName["IMG_5.heic"] == .some("IMG_5.dng"))
      // Stems differ in case, folders differ, or the extension's case is mixed: no pair.
      #expect(byName["img_3.jpg"] == .some(nil) && byName["IMG_4.jpg"] == .some(nil))
      #expect(byName["IMG_6.jpg"] == .some(nil))
      // The catalog keeps the companion (one byte) and gives it back.
      let catalog = PhotoCatalog()
      let pair = try #require(files.first { $0.name == "IMG_1.JPG" })
      let index = try #require(
        catalog.append(
          pair, folder: pair.folder, modified: WallClockTime(seconds: 0), header: nil,
          nameRank: 0, run: 0))
      #expect(catalog.photo(at: index).file.rawCompanion == "IMG_1.CR2")
    }
  }

  @Test func depthLimitsHowFarDown() async throws {
    try await TemporaryFolder.with(prefix: "tessera-walk") { root in
      for path in ["0.jpg", "a/1.jpg", "a/b/2.jpg", "a/b/c/3.jpg"] { try touch(path, in: root) }
      #expect(
        relativePaths(walk(FolderWalker(roots: [root.path], maxDepth: 0)), under: root) == ["0.jpg"]
      )
      #expect(
        relativePaths(walk(FolderWalker(roots: [root.path], maxDepth: 2)), under: root) == [
          "0.jpg", "a/1.jpg", "a/b/2.jpg",
        ])
      #expect(relativePaths(walk(FolderWalker(roots: [root.path])), under: root).count == 4)
    }
  }

  @Test func aSymlinkLoopCannotTrapTheWalk() async throws {
    try await TemporaryFolder.with(prefix: "tessera-walk") { root in
      try touch("a/1.jpg", in: root)
      try touch("a/b/2.jpg", in: root)
      let fm = FileManager.default
      // b/up → a, a/self → a, and a link from the root into a: three ways back.
      try fm.createSymbolicLink(
        atPath: root.appendingPathComponent("a/b/up").path, withDestinationPath: "..")
      try fm.createSymbolicLink(
        atPath: root.appendingPathComponent("a/self").path, withDestinationPath: ".")
      try fm.createSymbolicLink(
        atPath: root.appendingPathComponent("again").path, withDestinationPath: "a")
      // A link to a file is not listed; a dangling one is no problem.
      try fm.createSymbolicLink(
        atPath: root.appendingPathComponent("link.jpg").path, withDestinationPath: "a/1.jpg")
      try fm.createSymbolicLink(
        atPath: root.appendingPathComponent("gone").path, withDestinationPath: "nowhere")
      let batches = walk(FolderWalker(roots: [root.path]))
      let names = batches.flatMap(\.files).map(\.name).sorted()
      #expect(names == ["1.jpg", "2.jpg"])
      #expect(batches.last?.finished == true)
      // Root, a and b: each folder once, whichever path reached it first.
      #expect(batches.last?.foldersWalked == 3)
    }
  }

  @Test func anUnreadableSubfolderIsReportedOnceAndTheWalkGoesOn() async throws {
    try await TemporaryFolder.with(prefix: "tessera-walk") { root in
      try touch("open/1.jpg", in: root)
      try touch("private/2.jpg", in: root)
      try touch("z.jpg", in: root)
      let locked = root.appendingPathComponent("private").path
      // Reached twice: directly and through a link.
      try FileManager.default.createSymbolicLink(
        atPath: root.appendingPathComponent("alias").path, withDestinationPath: "private")
      #expect(chmod(locked, 0) == 0)
      defer { chmod(locked, 0o755) }
      // Root may read anything: walk as nobody (the file-system uid is per thread on Linux).
      let batches = Self.asNobody { walk(FolderWalker(roots: [root.path])) }
      let problems = batches.flatMap(\.problems)
      #expect(problems.count == 1)
      #expect(problems.first?.contains("can't be read (permission denied)") == true)
      #expect(
        problems.first?.contains("private") == true || problems.first?.contains("alias") == true)
      #expect(batches.flatMap(\.files).map(\.name).sorted() == ["1.jpg", "z.jpg"])
      #expect(batches.last?.finished == true)
    }
  }

  @Test func filesGivenDirectlyAndMissingRoots() async throws {
    try await TemporaryFolder.with(prefix: "tessera-walk") { root in
      try touch("one.jpg", in: root)
      try touch("dir/two.jpg", in: root)
      let missing = root.appendingPathComponent("missing").path
      let batches = walk(
        FolderWalker(roots: [
          root.appendingPathComponent("one.jpg").path, missing, root.path + "/dir",
        ]))
      #expect(batches.flatMap(\.files).map(\.name).sorted() == ["one.jpg", "two.jpg"])
      #expect(
        batches.flatMap(\.problems) == ["“\(missing)” can't be read (No such file or directory)"])
    }
  }

  /// Files named one by one (`tessera -i`) come out in the order given, before any folder's.
  @Test func filesGivenDirectlyKeepTheirOrder() async throws {
    try await TemporaryFolder.with(prefix: "tessera-walk") { root in
      for name in ["c.jpg", "a.jpg", "b.jpg", "dir/z.jpg"] { try touch(name, in: root) }
      let given = ["c.jpg", "a.jpg", "b.jpg"].map { root.appendingPathComponent($0).path }
      let files = walk(FolderWalker(roots: [root.path + "/dir"] + given)).flatMap(\.files)
      #expect(files.map(\.name) == ["c.jpg", "a.jpg", "b.jpg", "z.jpg"])
    }
  }

  @Test func batchesStreamSmallFirstAndTheWalkStopsWhenAsked() async throws {
    try await TemporaryFolder.with(prefix: "tessera-walk") { root in
      for folder in 0..<10 {
        for file in 0..<30 { try touch("f\(folder)/\(file).jpg", in: root) }
      }
      var walker = FolderWalker(roots: [root.path])
      walker.firstBatchSize = 5
      walker.batchSize = 50
      let batches = walk(walker)
      #expect(batches.first?.files.count ?? 0 >= 5)
      #expect(batches.first?.files.count ?? 0 <= 30)
      #expect(batches.count >= 5)
      #expect(batches.flatMap(\.files).count == 300)
      var delivered = 0
      walker.walk { _ in
        delivered += 1
        return false
      }
      #expect(delivered == 1)
    }
  }

  /// Runs `body` on this thread with the file-system identity of `nobody`, without the
  /// capabilities that let root read any folder; back to root afterwards.
  static func asNobody<Result>(_ body: () -> Result) -> Result {
    guard geteuid() == 0, let symbol = dlsym(dlopen(nil, RTLD_NOW), "setfsuid") else {
      return body()
    }
    // glibc's setfsuid is not in Swift's Glibc module; it is an exported C function.
    let setfsuid = unsafeBitCast(symbol, to: (@convention(c) (UInt32) -> Int32).self)
    _ = setfsuid(65_534)
    defer { _ = setfsuid(0) }
    return body()
  }
}
