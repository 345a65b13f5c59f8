import Foundation
import Testing

@testable import TesseraPhotoLibrary

#if canImport(Glibc)
  import Glibc
#endif

/// A folder of the test's own under `/dev/shm`, a tmpfs, so on another file system than the
/// temporary folder where `TrashSandbox` keeps the home trash. The trash puts files from it
/// in `/dev/shm`'s own trash folders, at the real top of that file system: the sandbox
/// removes afterwards, pass or fail, every entry of its own there, and the trash folders
/// themselves when they were not there before.
struct VolumeSandbox {
  static let top = "/dev/shm"

  /// Whether `/dev/shm` is on another file system than the temporary folder.
  static var isAnotherFileSystem: Bool {
    guard let shared = TrashSandbox.device(top) else { return false }
    return shared != TrashSandbox.device(FileManager.default.temporaryDirectory.path)
  }

  /// Also the prefix of every file name the test makes, so its entries are known.
  let tag = "tessera-trash-\(UUID().uuidString)"
  var folder: String { Self.top + "/" + tag }
  var userTrash: String { Self.top + "/.Trash-\(getuid())" }
  var sharedTrash: String { Self.top + "/.Trash" }

  /// Runs `body` with a new sandbox; `ownsSharedTrash` says the test may make `/dev/shm/.Trash`
  /// (checked absent by the test's trait) and it is removed after.
  static func with(ownsSharedTrash: Bool = false, _ body: (VolumeSandbox) throws -> Void) rethrows {
    let sandbox = VolumeSandbox()
    let userTrashExisted = TrashSandbox.exists(sandbox.userTrash)
    try? FileManager.default.createDirectory(
      atPath: sandbox.folder, withIntermediateDirectories: false)
    defer {
      try? FileManager.default.removeItem(atPath: sandbox.folder)
      if ownsSharedTrash { try? FileManager.default.removeItem(atPath: sandbox.sharedTrash) }
      if userTrashExisted {
        sandbox.removeEntries(in: sandbox.userTrash)
      } else {
        try? FileManager.default.removeItem(atPath: sandbox.userTrash)
      }
    }
    try body(sandbox)
  }

  /// Removes this sandbox's entries from a trash that was there before it.
  private func removeEntries(in trash: String) {
    for sub in ["files", "info"] {
      let folder = trash + "/" + sub
      for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
      where name.hasPrefix(tag) {
        try? FileManager.default.removeItem(atPath: folder + "/" + name)
      }
    }
  }
}

@Suite(
  .serialized, .timeLimit(.minutes(1)),
  .enabled(
    if: VolumeSandbox.isAnotherFileSystem,
    "/dev/shm is on the same file system as the temporary folder (or missing)"))
struct VolumeTrashTests {
  @Test func aFileOnAnotherFileSystemGoesToThatFileSystemsTrash() throws {
    try TrashSandbox.with { home in
      try VolumeSandbox.with { volume in
        let name = "\(volume.tag) photo.jpg"
        let original = try TrashSandbox.file(volume.folder + "/" + name, "on tmpfs")
        let trashed = try home.trash.trash(original)
        #expect(trashed.trashedPath == volume.userTrash + "/files/" + name)
        #expect(trashed.infoPath == volume.userTrash + "/info/" + name + ".trashinfo")
        #expect(!TrashSandbox.exists(original))
        #expect(TrashSandbox.mode(volume.userTrash + "/files") == 0o700)
        #expect(TrashSandbox.mode(trashed.infoPath) == 0o600)
        // Path is relative to the top directory, /dev/shm.
        let text = try #require(TrashSandbox.contents(trashed.infoPath))
        #expect(text.contains("\nPath=\(volume.tag)/\(volume.tag)%20photo.jpg\n"))
        #expect(try TrashInfo.read(trashed.infoPath).path == "\(volume.tag)/\(name)")
        // Not copied to the home trash: it was not even made.
        #expect(!TrashSandbox.exists(home.homeTrash))

        try home.trash.restore(trashed)
        #expect(TrashSandbox.contents(original) == "on tmpfs")
        #expect(!TrashSandbox.exists(trashed.infoPath))
      }
    }
  }

  @Test(
    .enabled(
      if: !TrashSandbox.exists(VolumeSandbox.top + "/.Trash"),
      "/dev/shm/.Trash exists already, and is not this test's to change"))
  func aSharedTrashIsUsedOnlyWhenStickyAndNotALink() throws {
    try TrashSandbox.with { home in
      try VolumeSandbox.with(ownsSharedTrash: true) { volume in
        let uid = getuid()
        // A symbolic link to a sticky folder: not used.
        try FileManager.default.createDirectory(
          atPath: volume.folder + "/sticky", withIntermediateDirectories: false)
        chmod(volume.folder + "/sticky", 0o1777)
        try FileManager.default.createSymbolicLink(
          atPath: volume.sharedTrash, withDestinationPath: volume.folder + "/sticky")
        let first = try TrashSandbox.file(volume.folder + "/\(volume.tag)-1.jpg", "1")
        #expect(try home.trash.trash(first).trashedPath.hasPrefix(volume.userTrash + "/files/"))
        #expect(!TrashSandbox.exists(volume.folder + "/sticky/\(uid)"))

        // A folder anyone may write to, without the sticky bit: not used.
        try FileManager.default.removeItem(atPath: volume.sharedTrash)
        try FileManager.default.createDirectory(
          atPath: volume.sharedTrash, withIntermediateDirectories: false)
        chmod(volume.sharedTrash, 0o777)
        let second = try TrashSandbox.file(volume.folder + "/\(volume.tag)-2.jpg", "2")
        #expect(try home.trash.trash(second).trashedPath.hasPrefix(volume.userTrash + "/files/"))
        #expect(!TrashSandbox.exists(volume.sharedTrash + "/\(uid)"))

        // Sticky: used, $topdir/.Trash/$uid made 0700, Path still relative to /dev/shm.
        chmod(volume.sharedTrash, 0o1777)
        let third = try TrashSandbox.file(volume.folder + "/\(volume.tag)-3.jpg", "3")
        let trashed = try home.trash.trash(third)
        let mine = volume.sharedTrash + "/\(uid)"
        #expect(trashed.trashedPath == mine + "/files/\(volume.tag)-3.jpg")
        #expect(TrashSandbox.mode(mine) == 0o700)
        #expect(try TrashInfo.read(trashed.infoPath).path == "\(volume.tag)/\(volume.tag)-3.jpg")
        try home.trash.restore(trashed)
        #expect(TrashSandbox.contents(third) == "3")
      }
    }
  }

  @Test(
    .enabled(
      if: !TrashSandbox.exists(VolumeSandbox.top + "/.Trash-4242")
        && !TrashSandbox.exists(VolumeSandbox.top + "/.Trash"),
      "/dev/shm/.Trash-4242 or /dev/shm/.Trash exists already"))
  func withNoUsableTrashTheFileStaysWhereItIs() throws {
    try TrashSandbox.with { home in
      try VolumeSandbox.with { volume in
        // User 4242's trash folder, made by someone else (this process's user): not theirs.
        let foreign = VolumeSandbox.top + "/.Trash-4242"
        try FileManager.default.createDirectory(atPath: foreign, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: foreign) }
        let trash = FreedesktopTrash(
          environment: ["XDG_DATA_HOME": home.dataHome], userID: 4242,
          now: { TrashSandbox.clock }, timeZone: TrashSandbox.zone)
        let original = try TrashSandbox.file(volume.folder + "/\(volume.tag).jpg", "stays")
        let error = #expect(throws: TrashError.self) { try trash.trash(original) }
        guard case .noTrashOnVolume(let path, let top, let reasons) = error else {
          Issue.record("expected noTrashOnVolume, got \(String(describing: error))")
          return
        }
        #expect(path == original)
        #expect(top == VolumeSandbox.top)
        #expect(reasons == ["\(foreign) belongs to another user"])
        #expect(error?.description.contains("left in place") == true)
        #expect(TrashSandbox.contents(original) == "stays")
        #expect(!TrashSandbox.exists(home.homeTrash))
        #expect(!TrashSandbox.exists(foreign + "/info/\(volume.tag).jpg.trashinfo"))
      }
    }
  }
}
