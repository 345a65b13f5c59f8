import Foundation
import TesseraUtilities
import Testing

@testable import TesseraPhotoLibrary

#if canImport(Glibc)
  import Glibc
#endif

@Suite(.timeLimit(.minutes(1))) struct FreedesktopTrashTests {
  @Test func aFileGoesToTheHomeTrashAndComesBack() throws {
    try TrashSandbox.with { sandbox in
      let original = try sandbox.file("photos/a.jpg", "the photo's bytes")
      let trashed = try sandbox.trash.trash(original)

      #expect(
        trashed
          == TrashedFile(
            originalPath: original, trashedPath: sandbox.homeTrash + "/files/a.jpg",
            infoPath: sandbox.homeTrash + "/info/a.jpg.trashinfo"))
      #expect(!TrashSandbox.exists(original))
      #expect(TrashSandbox.contents(trashed.trashedPath) == "the photo's bytes")
      // The folders the specification has made 0700, the entry 0600.
      for folder in ["", "/files", "/info"] {
        #expect(TrashSandbox.mode(sandbox.homeTrash + folder) == 0o700)
      }
      #expect(TrashSandbox.mode(trashed.infoPath) == 0o600)
      // The home trash's Path is absolute; the date is the clock's, in local time, no zone.
      #expect(
        TrashSandbox.contents(trashed.infoPath)
          == "[Trash Info]\nPath=\(original)\nDeletionDate=\(TrashSandbox.localClock)\n")
      let info = try TrashInfo.read(trashed.infoPath)
      #expect(info.path == original)
      #expect(info.deletionDate == TrashSandbox.localClock)
      #expect(info.deletionDate(in: TrashSandbox.zone) == TrashSandbox.clock)

      try sandbox.trash.restore(trashed)
      #expect(TrashSandbox.contents(original) == "the photo's bytes")
      #expect(!TrashSandbox.exists(trashed.trashedPath))
      #expect(!TrashSandbox.exists(trashed.infoPath))
    }
  }

  /// The home trash is this user's own folders: a `Trash`, `files` or `info` that is a
  /// symbolic link (to a folder another user can write to, or anywhere) is refused with the
  /// reason, and the photo stays where it was.
  @Test(arguments: ["", "/files", "/info"])
  func aLinkedHomeTrashIsRefused(linked: String) throws {
    try TrashSandbox.with { sandbox in
      let original = try sandbox.file("photos/a.jpg", "the photo's bytes")
      let elsewhere = sandbox.root + "/elsewhere"
      try FileManager.default.createDirectory(
        atPath: elsewhere, withIntermediateDirectories: true)
      try FileManager.default.createDirectory(
        atPath: sandbox.homeTrash, withIntermediateDirectories: true)
      if !linked.isEmpty {
        try FileManager.default.removeItem(atPath: sandbox.homeTrash)
        for folder in ["", "/files", "/info"] where folder != linked {
          try FileManager.default.createDirectory(
            atPath: sandbox.homeTrash + folder, withIntermediateDirectories: true)
        }
      } else {
        try FileManager.default.removeItem(atPath: sandbox.homeTrash)
      }
      try FileManager.default.createSymbolicLink(
        atPath: sandbox.homeTrash + linked, withDestinationPath: elsewhere)
      let error = #expect(throws: TrashError.self) { try sandbox.trash.trash(original) }
      #expect(
        "\(error.map { "\($0)" } ?? "")".contains(
          "\(sandbox.homeTrash + linked) is a symbolic link"),
        "\(error.map { "\($0)" } ?? "no error")")
      #expect(TrashSandbox.contents(original) == "the photo's bytes")
      #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere).isEmpty)
    }
  }

  /// A home trash folder others may write to (left so by another program, or made so) is
  /// not used: anyone could have put an entry there first.
  @Test(arguments: ["", "/files", "/info"])
  func aHomeTrashOthersCanWriteToIsRefused(folder: String) throws {
    try TrashSandbox.with { sandbox in
      let original = try sandbox.file("photos/a.jpg", "the photo's bytes")
      for part in ["/files", "/info"] {
        try FileManager.default.createDirectory(
          atPath: sandbox.homeTrash + part, withIntermediateDirectories: true)
      }
      chmod(sandbox.homeTrash + folder, 0o777)
      let error = #expect(throws: TrashError.self) { try sandbox.trash.trash(original) }
      #expect(
        "\(error.map { "\($0)" } ?? "")".contains(
          "others can write to \(sandbox.homeTrash + folder)"),
        "\(error.map { "\($0)" } ?? "no error")")
      #expect(TrashSandbox.contents(original) == "the photo's bytes")
    }
  }

  @Test func linkedFoldersAndDotsAreResolved() throws {
    try TrashSandbox.with { sandbox in
      let original = try sandbox.file("real/b.jpg", "b")
      try FileManager.default.createSymbolicLink(
        atPath: sandbox.root + "/link", withDestinationPath: sandbox.root + "/real")
      // (A relative path is resolved the same way, from the current folder, which a test
      // running beside others must not change.)
      let trashed = try sandbox.trash.trash(sandbox.root + "/link/./../link/b.jpg")
      #expect(trashed.originalPath == original)
      #expect(try TrashInfo.read(trashed.infoPath).path == original)
    }
  }

  @Test func aSymbolicLinkIsTrashedNotItsTarget() throws {
    try TrashSandbox.with { sandbox in
      let target = try sandbox.file("photos/target.jpg", "target")
      let link = sandbox.root + "/photos/link.jpg"
      try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
      let trashed = try sandbox.trash.trash(link)
      #expect(TrashSandbox.contents(target) == "target")
      #expect(
        try FileManager.default.destinationOfSymbolicLink(atPath: trashed.trashedPath) == target)
      try sandbox.trash.restore(trashed)
      #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == target)
    }
  }

  @Test func filesOfTheSameNameGetDistinctEntries() throws {
    try TrashSandbox.with { sandbox in
      let paths = try ["x", "y", "z"].map { try sandbox.file("\($0)/a.jpg", "from \($0)") }
      let trashed = try paths.map { try sandbox.trash.trash($0) }
      #expect(
        trashed.map { ($0.trashedPath as NSString).lastPathComponent } == [
          "a.jpg", "a.2.jpg", "a.3.jpg",
        ])
      for (entry, path) in zip(trashed, paths) {
        #expect(try TrashInfo.read(entry.infoPath).path == path)
      }
      // Back in another order, each to its own folder with its own bytes.
      for entry in trashed.reversed() { try sandbox.trash.restore(entry) }
      #expect(paths.map(TrashSandbox.contents) == ["from x", "from y", "from z"])
      // The first name is free again.
      #expect(try sandbox.trash.trash(paths[1]).trashedPath.hasSuffix("/files/a.jpg"))
    }
  }

  @Test func aFilesEntryWithoutInfoIsNotOverwritten() throws {
    try TrashSandbox.with { sandbox in
      // Another program's leftover: files/a.jpg with no info file.
      let leftover = try TrashSandbox.file(sandbox.homeTrash + "/files/a.jpg", "leftover")
      let trashed = try sandbox.trash.trash(try sandbox.file("p/a.jpg", "mine"))
      #expect(trashed.trashedPath.hasSuffix("/files/a.2.jpg"))
      #expect(TrashSandbox.contents(leftover) == "leftover")
      #expect(!TrashSandbox.exists(sandbox.homeTrash + "/info/a.jpg.trashinfo"))
    }
  }

  @Test func awkwardNamesArePercentEncodedAndDecodeBack() throws {
    try TrashSandbox.with { sandbox in
      let original = try sandbox.file("my photos 100%/été 🌅 #1+2;x=y.jpg", "awkward")
      let trashed = try sandbox.trash.trash(original)
      let encoded =
        "my%20photos%20100%25/%C3%A9t%C3%A9%20%F0%9F%8C%85%20%231%2B2%3Bx%3Dy.jpg"
      let text = try #require(TrashSandbox.contents(trashed.infoPath))
      #expect(text.contains("\nPath=\(sandbox.root)/\(encoded)\n"))
      #expect(try TrashInfo.read(trashed.infoPath).path == original)
      #expect(trashed.trashedPath == sandbox.homeTrash + "/files/été 🌅 #1+2;x=y.jpg")
      try sandbox.trash.restore(trashed)
      #expect(TrashSandbox.contents(original) == "awkward")
    }
  }

  /// A name that is not UTF-8 (Latin-1 "é", the byte E9, as an old camera card or archive
  /// has it) is trashed and restored by its own bytes, its Path written as GLib writes it.
  @Test func aNameThatIsNotUTF8IsTrashedAndRestoredByItsBytes() throws {
    try TrashSandbox.with { sandbox in
      let folder = try sandbox.file("photos/keep.jpg", "kept")
      let photos = String(folder.dropLast("/keep.jpg".count))
      let original = FileSystemName.string(Array((photos + "/caf").utf8) + [0xE9] + [0x2E, 0x6A])
      let descriptor = FileSystemName.withCString(original) {
        open($0, O_WRONLY | O_CREAT | O_EXCL, 0o600)
      }
      try #require(descriptor >= 0, "errno \(errno)")
      close(descriptor)
      let trashed = try sandbox.trash.trash(original)
      let read = SafeFileRead.contents(path: trashed.infoPath, maxFileSize: 4_096)
      let text = try read.get()
      #expect(String(decoding: text.bytes, as: UTF8.self).contains("/photos/caf%E9.j\n"))
      #expect(try TrashInfo.read(trashed.infoPath).path == original)
      var info = stat()
      #expect(FileSystemName.withCString(original) { lstat($0, &info) } != 0)
      try sandbox.trash.restore(trashed)
      #expect(FileSystemName.withCString(original) { lstat($0, &info) } == 0)
    }
  }

  @Test func restoreNeverOverwritesWhatTookThePlace() throws {
    try TrashSandbox.with { sandbox in
      let original = try sandbox.file("p/a.jpg", "old")
      let trashed = try sandbox.trash.trash(original)
      try TrashSandbox.file(original, "new")
      #expect(throws: TrashError.destinationExists(path: original)) {
        try sandbox.trash.restore(trashed)
      }
      #expect(TrashSandbox.contents(original) == "new")
      #expect(TrashSandbox.contents(trashed.trashedPath) == "old")
      #expect(TrashSandbox.exists(trashed.infoPath))
      // Once the place is free again, the entry still restores.
      try FileManager.default.removeItem(atPath: original)
      try sandbox.trash.restore(trashed)
      #expect(TrashSandbox.contents(original) == "old")
    }
  }

  @Test func restoreRefusesAnEntryThatNoLongerFits() throws {
    try TrashSandbox.with { sandbox in
      let trash = sandbox.trash
      let original = try sandbox.file("p/a.jpg", "a")
      let trashed = try trash.trash(original)

      // An entry that names another place.
      let other = TrashedFile(
        originalPath: sandbox.root + "/p/b.jpg", trashedPath: trashed.trashedPath,
        infoPath: trashed.infoPath)
      #expect(
        throws: TrashError.infoMismatch(
          infoPath: trashed.infoPath, expected: other.originalPath, recorded: original)
      ) { try trash.restore(other) }
      // Paths that are not one entry of one trash.
      let unpaired = TrashedFile(
        originalPath: original, trashedPath: trashed.trashedPath,
        infoPath: sandbox.homeTrash + "/info/b.jpg.trashinfo")
      #expect(throws: TrashError.self) { try trash.restore(unpaired) }

      // The folder it came from is gone: not made again.
      try FileManager.default.removeItem(atPath: sandbox.root + "/p")
      #expect(throws: TrashError.folderMissing(path: original, folder: sandbox.root + "/p")) {
        try trash.restore(trashed)
      }
      #expect(TrashSandbox.exists(trashed.trashedPath))

      // The trashed file is gone (the trash was emptied).
      try FileManager.default.createDirectory(
        atPath: sandbox.root + "/p", withIntermediateDirectories: false)
      try FileManager.default.removeItem(atPath: trashed.trashedPath)
      #expect(throws: TrashError.notInTrash(path: trashed.trashedPath)) {
        try trash.restore(trashed)
      }
      #expect(!TrashSandbox.exists(original))
    }
  }

  @Test func whatCannotBeTrashedIsRefused() throws {
    try TrashSandbox.with { sandbox in
      let trash = sandbox.trash
      try FileManager.default.createDirectory(
        atPath: sandbox.root + "/folder", withIntermediateDirectories: true)
      #expect(throws: TrashError.isFolder(path: sandbox.root + "/folder")) {
        try trash.trash(sandbox.root + "/folder")
      }
      #expect(throws: TrashError.notFound(path: sandbox.root + "/missing.jpg")) {
        try trash.trash(sandbox.root + "/missing.jpg")
      }
      #expect(throws: TrashError.notFound(path: sandbox.root + "/no/such/folder.jpg")) {
        try trash.trash(sandbox.root + "/no/such/folder.jpg")
      }
      for path in ["", "/", sandbox.root + "/folder/..", "."] {
        #expect(throws: TrashError.notAFileName(path: path)) { try trash.trash(path) }
      }
      let file = try sandbox.file("f.jpg", "f")
      #expect(throws: TrashError.notFound(path: file + "/")) { try trash.trash(file + "/") }
      let homeless = FreedesktopTrash(environment: ["XDG_DATA_HOME": "relative", "HOME": ""])
      #expect(throws: TrashError.noHomeTrash) { try homeless.trash(file) }
      // Nothing was trashed, and no trash was made.
      #expect(TrashSandbox.contents(file) == "f")
      #expect(!TrashSandbox.exists(sandbox.homeTrash))
    }
  }

  @Test func theHomeTrashFollowsTheBaseDirectorySpecification() {
    let home = ["HOME": "/home/me"]
    #expect(FreedesktopTrash(environment: home).homeTrashPath == "/home/me/.local/share/Trash")
    #expect(
      FreedesktopTrash(environment: home.merging(["XDG_DATA_HOME": "/data/"]) { $1 })
        .homeTrashPath == "/data/Trash")
    // Empty or relative: ignored, as the Base Directory specification says.
    for ignored in ["", "data"] {
      #expect(
        FreedesktopTrash(environment: home.merging(["XDG_DATA_HOME": ignored]) { $1 })
          .homeTrashPath == "/home/me/.local/share/Trash")
    }
    #expect(FreedesktopTrash(environment: [:]).homeTrashPath == nil)
  }

  @Test func trashNamesKeepTheExtensionAndFitTheNameLimit() {
    #expect(FreedesktopTrash.candidateName("a.jpg", attempt: 1) == "a.jpg")
    #expect(FreedesktopTrash.candidateName("a.jpg", attempt: 2) == "a.2.jpg")
    #expect(FreedesktopTrash.candidateName("archive.tar.gz", attempt: 7) == "archive.tar.7.gz")
    #expect(FreedesktopTrash.candidateName("README", attempt: 3) == "README.3")
    #expect(FreedesktopTrash.candidateName(".hidden", attempt: 2) == ".hidden.2")
    let random = FreedesktopTrash.candidateName("a.jpg", attempt: 101)
    #expect(random.hasPrefix("a.") && random.hasSuffix(".jpg") && random != "a.101.jpg")
    // 250 bytes of two-byte letters: cut between letters so NAME.trashinfo fits 255 bytes.
    let long = String(repeating: "é", count: 125) + ".jpg"
    for attempt in [1, 2, 150] {
      let name = FreedesktopTrash.candidateName(long, attempt: attempt)
      #expect(name.utf8.count + ".trashinfo".utf8.count <= 255)
      #expect(name.hasPrefix("éé") && name.hasSuffix(".jpg"))
    }
  }

  @Test func aLongNameIsTrashedUnderAShorterOne() throws {
    try TrashSandbox.with { sandbox in
      let name = String(repeating: "n", count: 250) + ".jpg"
      let original = try sandbox.file("p/" + name, "long")
      let trashed = try sandbox.trash.trash(original)
      #expect((trashed.trashedPath as NSString).lastPathComponent.utf8.count == 245)
      #expect(try TrashInfo.read(trashed.infoPath).path == original)
      try sandbox.trash.restore(trashed)
      #expect(TrashSandbox.contents(original) == "long")
    }
  }
}
