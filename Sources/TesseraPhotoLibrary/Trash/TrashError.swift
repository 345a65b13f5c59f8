/// Why a file was not moved to the Trash or back, worded for the person who pressed the key:
/// each message says what was attempted, on which path, and what stood in the way. The cases
/// are the ones a caller may act on differently (a file that is gone, a place that is taken);
/// everything else a system call can say arrives as `trashFailed` or `restoreFailed`, with the
/// system's own reason.
///
/// - Complexity: `description` is O(the length of the paths and reasons it names).
public enum TrashError: Error, CustomStringConvertible, Equatable, Sendable {
  /// The path names nothing, or one of its folders is missing.
  case notFound(path: String)
  /// The path is empty, `/`, or ends in `.` or `..`: it names no file to move.
  case notAFileName(path: String)
  /// Only files are trashed: the gallery trashes photos, and a folder would also need the
  /// specification's `directorysizes` cache kept up to date.
  case isFolder(path: String)
  case readOnlyFileSystem(path: String)
  /// The file's folder does not let this user take the file out of it.
  case permissionDenied(path: String)
  /// Neither `XDG_DATA_HOME` nor `HOME` is an absolute path, so there is no home trash.
  case noHomeTrash
  /// The file is on another file system than the home trash and neither of that file system's
  /// trash folders (`$topdir/.Trash/$uid`, `$topdir/.Trash-$uid`) could be used; `reasons`
  /// says why for each tried. The file stays where it is: moving it to the home trash would
  /// mean copying it, which this trash never does.
  case noTrashOnVolume(path: String, topDirectory: String, reasons: [String])
  /// Moving `path` to the Trash failed for another reason, which `reason` gives.
  case trashFailed(path: String, reason: String)
  /// The trashed file of the entry is no longer in the trash (emptied, or restored by another
  /// program).
  case notInTrash(path: String)
  /// Something now exists at the original path; it is never overwritten.
  case destinationExists(path: String)
  /// The folder the file came from is gone. It is not made again: a missing folder was
  /// removed on purpose, and whether to recreate it (with which mode) is the person's choice.
  case folderMissing(path: String, folder: String)
  /// The `.trashinfo` file at `path` is missing, too large, or not what the specification
  /// describes.
  case invalidInfo(path: String, reason: String)
  /// The `.trashinfo` file names another original path than the one restore was given.
  case infoMismatch(infoPath: String, expected: String, recorded: String)
  /// Restoring `path` failed for another reason, which `reason` gives.
  case restoreFailed(path: String, reason: String)

  public var description: String {
    switch self {
    case .notFound(let path):
      "cannot move to the Trash: \(path) does not exist"
    case .notAFileName(let path):
      "cannot move to the Trash: \"\(path)\" does not name a file"
    case .isFolder(let path):
      "cannot move to the Trash: \(path) is a folder (only files are moved to the Trash)"
    case .readOnlyFileSystem(let path):
      "cannot move to the Trash: \(path) is on a read-only file system"
    case .permissionDenied(let path):
      "cannot move to the Trash: no permission to remove \(path) from its folder"
    case .noHomeTrash:
      "cannot move to the Trash: neither XDG_DATA_HOME nor HOME is an absolute path, so there"
        + " is no home trash"
    case .noTrashOnVolume(let path, let top, let reasons):
      "cannot move to the Trash: \(path) is on the file system mounted at \(top), which has no"
        + " trash folder this user can use (\(reasons.joined(separator: "; "))); the file was"
        + " left in place, since moving it to the home trash would mean copying it"
    case .trashFailed(let path, let reason):
      "cannot move \(path) to the Trash: \(reason)"
    case .notInTrash(let path):
      "cannot restore: \(path) is no longer in the Trash"
    case .destinationExists(let path):
      "cannot restore: a file already exists at \(path)"
    case .folderMissing(let path, let folder):
      "cannot restore \(path): its folder \(folder) no longer exists"
    case .invalidInfo(let path, let reason):
      "cannot read the trash entry \(path): \(reason)"
    case .infoMismatch(let infoPath, let expected, let recorded):
      "cannot restore \(expected): its trash entry \(infoPath) says the file came from"
        + " \(recorded)"
    case .restoreFailed(let path, let reason):
      "cannot restore \(path): \(reason)"
    }
  }
}
