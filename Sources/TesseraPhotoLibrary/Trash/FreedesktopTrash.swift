import Foundation
import TesseraUtilities

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A file in the Trash: where it was, where it is now, and its entry. What
/// `FreedesktopTrash.trash(_:)` returns and `FreedesktopTrash.restore(_:)` takes, so an undo
/// can put back exactly what was moved.
///
/// - Complexity: O(1) to copy; comparing is O(path lengths).
public struct TrashedFile: Sendable, Equatable, Hashable {
  /// The absolute path the file had, folders resolved (no symbolic link, `.` or `..`).
  public let originalPath: String
  /// `$trash/files/NAME`.
  public let trashedPath: String
  /// `$trash/info/NAME.trashinfo`.
  public let infoPath: String

  /// An entry known from elsewhere (a list of trashed files, another session); restoring it
  /// checks it against its info file first.
  public init(originalPath: String, trashedPath: String, infoPath: String) {
    self.originalPath = originalPath
    self.trashedPath = trashedPath
    self.infoPath = infoPath
  }
}

/// Moves files to the Trash and back as the freedesktop.org Trash specification 1.0 has it,
/// so the desktops that follow it show, restore and empty what Tessera trashed, and Tessera
/// restores what they trashed (tested against KDE's `ktrash5` and GLib's `gio trash`).
///
/// Where a file goes: the home trash (`$XDG_DATA_HOME/Trash`, else
/// `$HOME/.local/share/Trash`) when the file is on the same file system; otherwise its file
/// system's own trash under the mount point: `$topdir/.Trash/$uid` when an administrator made
/// `$topdir/.Trash` (a folder, not a symbolic link, sticky), else `$topdir/.Trash-$uid`.
/// Folders it needs are made `0700`. A file is only ever renamed, never copied: when no trash
/// on its file system can be used, `trash(_:)` throws and the file stays (the specification
/// lets an implementation refuse; copying a large photo library across disks on a key press
/// is the delay it warns about). A `$topdir/.Trash` that fails the checks is skipped, and
/// named in the error should the fallback fail too.
///
/// How: the info file is claimed first (`open` with `O_EXCL`, mode `0600`), so two trashers,
/// in this process or another, never take one name; then the file is renamed into `files/`
/// with `renameat2(RENAME_NOREPLACE)`, so nothing in the trash is ever overwritten; if that
/// fails, the info file is removed again. Trash names are the file's own name, then `NAME.2.ext`,
/// `NAME.3.ext`, … (the number before the extension, so the trashed file keeps its type for
/// whoever browses `files/`), shortened to fit the 255-byte name limit with `.trashinfo`.
///
/// Only files (and symbolic links, moved as links) are trashed, not folders: the gallery
/// trashes photos, and folders would need the specification's `directorysizes` cache.
///
/// Restoring renames the file back only where nothing exists now, never overwriting, and
/// only into a folder that still exists; then it removes the info file.
///
/// Every call is blocking file-system work: call it off the cooperative pool.
///
/// - Complexity: trashing walks up from the file to its mount point (one `stat` a folder)
///   when it is not on the home file system, and tries O(k) names for the k-th file of the
///   same name in one trash (random ones after the first 100); restoring is O(1) system calls.
public struct FreedesktopTrash: Sendable {
  let environment: [String: String]
  let userID: UInt32
  let now: @Sendable () -> Date
  let timeZone: TimeZone

  /// - Parameters:
  ///   - environment: where `XDG_DATA_HOME` and `HOME` are read.
  ///   - userID: the `$uid` in top directories' trash names, and who must own those trashes.
  ///   - now: the clock of `DeletionDate`.
  ///   - timeZone: the local time `DeletionDate` is written in.
  public init(
    environment: [String: String] = ProcessInfo.processInfo.environment,
    userID: UInt32 = getuid(),
    now: @escaping @Sendable () -> Date = Date.init,
    timeZone: TimeZone = .current
  ) {
    self.environment = environment
    self.userID = userID
    self.now = now
    self.timeZone = timeZone
  }

  /// The home trash, `$XDG_DATA_HOME/Trash`, or `$HOME/.local/share/Trash` when
  /// `XDG_DATA_HOME` is unset, empty or relative (which the Base Directory specification says
  /// to ignore); nil when `HOME` is not absolute either.
  var homeTrashPath: String? {
    BaseDirectory.data.path(environment: environment).map { TrashFileSystem.join($0, "Trash") }
  }

  /// Moves the file at `path` (absolute, or relative to the current folder) to the Trash.
  public func trash(_ path: String) throws(TrashError) -> TrashedFile {
    let original = try resolvedPath(path)
    let file: TrashFileSystem.Status
    switch TrashFileSystem.linkStatus(original) {
    case .success(let status): file = status
    case .failure(let error): throw fileError(error, original, "cannot look at it")
    }
    guard !file.isFolder else { throw .isFolder(path: original) }
    if path.hasSuffix("/") { throw .notFound(path: path) }  // "x/" names a folder
    // The specification's advice: check the file may be removed before trashing anything.
    let folder = TrashFileSystem.folder(of: original)
    guard FileSystemName.withCString(folder, { access($0, W_OK | X_OK) }) == 0 else {
      throw fileError(.init(errno), original, "cannot change its folder \(folder)")
    }
    let trash = try trashDirectory(for: original, device: file.device)
    let name = try claimName(for: original, in: trash)
    let trashed = trash.trashedPath(name)
    if let error = TrashFileSystem.renameNoReplace(original, trashed) {
      TrashFileSystem.remove(trash.infoPath(name))
      if error.code == EXDEV {
        throw .trashFailed(
          path: original,
          reason: "its trash \(trash.path) is on another file system, and files are never"
            + " copied to the Trash")
      }
      throw fileError(error, original, "cannot move it to \(trashed)")
    }
    return TrashedFile(originalPath: original, trashedPath: trashed, infoPath: trash.infoPath(name))
  }

  /// Puts a trashed file back where it was and removes its trash entry. Refuses, changing
  /// nothing, when the entry's info file does not name `file.originalPath`, when something
  /// now exists there, or when its folder is gone. An info file that cannot be removed after
  /// the file is back is left (the file is restored; readers skip an entry without a file).
  public func restore(_ file: TrashedFile) throws(TrashError) {
    guard let trash = TrashDirectory(trashedPath: file.trashedPath, infoPath: file.infoPath)
    else {
      throw .invalidInfo(
        path: file.infoPath,
        reason: "it is not the entry of \(file.trashedPath) in one trash folder")
    }
    let info = try TrashInfo.read(file.infoPath)
    let recorded = trash.originalPath(of: info.path)
    guard recorded == file.originalPath else {
      throw .infoMismatch(
        infoPath: file.infoPath, expected: file.originalPath, recorded: recorded)
    }
    if case .failure(let error) = TrashFileSystem.linkStatus(file.trashedPath) {
      if error.code == ENOENT { throw .notInTrash(path: file.trashedPath) }
      throw .restoreFailed(
        path: file.originalPath, reason: "cannot look at \(file.trashedPath): \(error.text)")
    }
    let folder = TrashFileSystem.folder(of: file.originalPath)
    switch TrashFileSystem.status(folder) {
    case .success(let status) where status.isFolder: break
    case .success: throw .folderMissing(path: file.originalPath, folder: folder)
    case .failure(let error) where error.code == ENOENT || error.code == ENOTDIR:
      throw .folderMissing(path: file.originalPath, folder: folder)
    case .failure(let error):
      throw .restoreFailed(
        path: file.originalPath, reason: "cannot look at \(folder): \(error.text)")
    }
    if let error = TrashFileSystem.renameNoReplace(file.trashedPath, file.originalPath) {
      switch error.code {
      case EEXIST: throw .destinationExists(path: file.originalPath)
      case EXDEV:
        throw .restoreFailed(
          path: file.originalPath,
          reason: "its folder is now on another file system than the Trash, and files are"
            + " never copied out of it")
      default: throw .restoreFailed(path: file.originalPath, reason: error.text)
      }
    }
    TrashFileSystem.remove(file.infoPath)
  }

  // MARK: - Where the file is

  /// The absolute path of `path` with its folders resolved (symbolic links, `.`, `..`), its
  /// last component kept as it is: a link is trashed, not what it points at.
  private func resolvedPath(_ path: String) throws(TrashError) -> String {
    var trimmed = Substring(path)
    while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
    let name = TrashFileSystem.name(of: String(trimmed))
    guard !name.isEmpty, name != ".", name != ".." else { throw .notAFileName(path: path) }
    let folder = trimmed.contains("/") ? TrashFileSystem.folder(of: String(trimmed)) : "."
    switch TrashFileSystem.resolved(folder) {
    case .success(let resolved): return TrashFileSystem.join(resolved, name)
    case .failure(let error): throw fileError(error, path, "cannot find its folder")
    }
  }

  // MARK: - Which trash

  /// The trash on the file's file system (`device`), made ready: `files/` and `info/` exist.
  private func trashDirectory(
    for original: String, device: UInt64
  ) throws(TrashError)
    -> TrashDirectory
  {
    guard let home = homeTrashPath else { throw .noHomeTrash }
    if existingAncestorDevice(of: home) == device {
      let trash = TrashDirectory(path: home, writesRelativePaths: false)
      do {
        try prepareHome(trash)
      } catch {
        if error.code == EROFS { throw .readOnlyFileSystem(path: original) }
        throw .trashFailed(path: original, reason: error.description)
      }
      return trash
    }
    let top = mountPoint(of: TrashFileSystem.folder(of: original), device: device)
    var reasons: [String] = []
    // (1) The administrator's shared `.Trash`, only when it passes the checks.
    let shared = TrashFileSystem.join(top, ".Trash")
    if case .success(let status) = TrashFileSystem.linkStatus(shared) {
      if status.isSymbolicLink {
        reasons.append("\(shared) is a symbolic link")
      } else if !status.isFolder {
        reasons.append("\(shared) is not a folder")
      } else if !status.isSticky {
        reasons.append("\(shared) does not have the sticky bit")
      } else {
        let trash = TrashDirectory(
          path: TrashFileSystem.join(shared, String(userID)), writesRelativePaths: true)
        do {
          try prepareOwned(trash)
          return trash
        } catch {
          reasons.append(error.description)
        }
      }
    }
    // (2) This user's own `.Trash-$uid`.
    let trash = TrashDirectory(
      path: TrashFileSystem.join(top, ".Trash-\(userID)"), writesRelativePaths: true)
    do {
      try prepareOwned(trash)
      return trash
    } catch {
      if error.code == EROFS { throw .readOnlyFileSystem(path: original) }
      reasons.append(error.description)
    }
    throw .noTrashOnVolume(path: original, topDirectory: top, reasons: reasons)
  }

  /// The device of `path` or, when it does not exist yet, of its nearest existing folder:
  /// the file system the home trash is (or will be) on. Symbolic links are followed, so a
  /// home trash linked elsewhere counts where it leads.
  private func existingAncestorDevice(of path: String) -> UInt64? {
    var current = path
    while true {
      if case .success(let status) = TrashFileSystem.status(current) { return status.device }
      let parent = TrashFileSystem.folder(of: current)
      guard parent != current else { return nil }
      current = parent
    }
  }

  /// The mount point of the file system `device` that holds the resolved `folder`: the
  /// highest folder above it still on that device.
  private func mountPoint(of folder: String, device: UInt64) -> String {
    var top = folder
    while top != "/" {
      let parent = TrashFileSystem.folder(of: top)
      guard case .success(let status) = TrashFileSystem.status(parent), status.device == device
      else { break }
      top = parent
    }
    return top
  }

  /// Why a trash folder could not be made ready: a failed check, or a failed system call and
  /// its `errno`.
  private struct SetupFailure: Error, CustomStringConvertible {
    var description: String
    var code: Int32?

    init(_ check: String) { description = check }

    init(_ step: String, _ error: TrashFileSystem.Errno) {
      description = "\(step): \(error.text)"
      code = error.code
    }
  }

  /// Makes the home trash's missing parents (`0700`; the user's own folders, so a symbolic
  /// link among them is theirs to have made), then the trash itself as a top directory's:
  /// `Trash`, `files/` and `info/` must be this user's folders, not symbolic links. A link
  /// there could lead to a folder another user can write to, or anywhere at all: the photo
  /// would go there. (GLib and KDE's trash keep to the same folders.)
  private func prepareHome(_ trash: TrashDirectory) throws(SetupFailure) {
    var missing: [String] = []
    var current = TrashFileSystem.folder(of: trash.path)
    while case .failure = TrashFileSystem.linkStatus(current) {
      missing.append(current)
      let parent = TrashFileSystem.folder(of: current)
      guard parent != current else { break }
      current = parent
    }
    for folder in missing.reversed() {
      if let error = TrashFileSystem.makeFolder(folder) {
        throw SetupFailure("cannot make the folder \(folder)", error)
      }
      guard case .success(let status) = TrashFileSystem.status(folder), status.isFolder else {
        throw SetupFailure("\(folder) is not a folder")
      }
    }
    try prepareOwned(trash)
  }

  /// Makes a top directory's trash for this user (`0700`) and checks it is theirs: a folder,
  /// not a symbolic link, owned by `userID` and not writable by its group or others (others
  /// can write to `$topdir` or the sticky `.Trash`, so they could have put something there
  /// first), and its `files/` and `info/` folders likewise.
  private func prepareOwned(_ trash: TrashDirectory) throws(SetupFailure) {
    for folder in [trash.path, trash.filesFolder, trash.infoFolder] {
      if let error = TrashFileSystem.makeFolder(folder) {
        throw SetupFailure("cannot make the folder \(folder)", error)
      }
      switch TrashFileSystem.linkStatus(folder) {
      case .success(let status) where status.isSymbolicLink:
        throw SetupFailure("\(folder) is a symbolic link")
      case .success(let status) where !status.isFolder:
        throw SetupFailure("\(folder) is not a folder")
      case .success(let status) where status.owner != userID:
        throw SetupFailure("\(folder) belongs to another user")
      case .success(let status) where status.isWritableByOthers:
        throw SetupFailure("others can write to \(folder)")
      case .success: break
      case .failure(let error): throw SetupFailure("cannot look at \(folder)", error)
      }
    }
  }

  // MARK: - The entry

  /// Claims a name in `trash` by creating its info file (`O_EXCL`, so the claim is atomic),
  /// written with the entry; a name whose `files/` entry exists without an info file (another
  /// program's leftover) is passed over, not overwritten.
  private func claimName(
    for original: String, in trash: TrashDirectory
  ) throws(TrashError)
    -> String
  {
    let info = TrashInfo(
      path: trash.pathValue(of: original),
      deletionDate: TrashInfo.deletionDate(now(), in: timeZone))
    let name = TrashFileSystem.name(of: original)
    for attempt in 1...200 {
      let candidate = Self.candidateName(name, attempt: attempt)
      let infoPath = trash.infoPath(candidate)
      let descriptor = FileSystemName.withCString(infoPath) {
        open($0, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, S_IRUSR | S_IWUSR)
      }
      if descriptor < 0 {
        if errno == EEXIST { continue }
        throw trashStepError(.init(errno), original, "cannot create \(infoPath)")
      }
      if case .success = TrashFileSystem.linkStatus(trash.trashedPath(candidate)) {
        close(descriptor)
        TrashFileSystem.remove(infoPath)
        continue
      }
      var failure = TrashFileSystem.writeAll(info.contents, to: descriptor)
      // The umask may have taken bits away, never added any: 0600 exactly.
      if failure == nil, fchmod(descriptor, S_IRUSR | S_IWUSR) != 0 { failure = .init(errno) }
      if close(descriptor) != 0, failure == nil { failure = .init(errno) }
      if let failure {
        TrashFileSystem.remove(infoPath)
        throw trashStepError(failure, original, "cannot write \(infoPath)")
      }
      return candidate
    }
    throw .trashFailed(path: original, reason: "no free name for it in \(trash.infoFolder)")
  }

  /// The `attempt`-th name tried for a file named `name`: the name itself, then
  /// `stem.N.ext` for N = 2…100, then `stem.XXXXXXXX.ext` with a random hex number; each cut
  /// to leave room for `.trashinfo` within the 255-byte limit of a file name.
  static func candidateName(_ name: String, attempt: Int) -> String {
    let dot = name.dropFirst().lastIndex(of: ".")  // a leading dot starts no extension
    var stem = dot.map { String(name[..<$0]) } ?? name
    var ext = dot.map { String(name[$0...]) } ?? ""
    if ext.utf8.count > 32 {  // not an extension but part of the name
      stem = name
      ext = ""
    }
    let tag =
      switch attempt {
      case 1: ""
      case 2...100: ".\(attempt)"
      default: "." + String(UInt32.random(in: 0...UInt32.max), radix: 16)
      }
    let room = 255 - TrashDirectory.infoExtension.utf8.count - tag.utf8.count - ext.utf8.count
    while stem.utf8.count > room { stem.removeLast() }
    return stem + tag + ext
  }

  /// The error for a failed step on the file at `path` itself (finding, checking, moving
  /// it): the cases a person can act on by name, else the step and the system's reason.
  private func fileError(
    _ error: TrashFileSystem.Errno, _ path: String, _ step: String
  ) -> TrashError {
    switch error.code {
    case ENOENT, ENOTDIR: .notFound(path: path)
    case EACCES, EPERM: .permissionDenied(path: path)
    default: trashStepError(error, path, step)
    }
  }

  /// The error for a failed step in the trash while trashing `path`. A trash used is on the
  /// file's file system, so a read-only one is the file's.
  private func trashStepError(
    _ error: TrashFileSystem.Errno, _ path: String, _ step: String
  ) -> TrashError {
    error.code == EROFS
      ? .readOnlyFileSystem(path: path) : .trashFailed(path: path, reason: "\(step): \(error.text)")
  }
}
