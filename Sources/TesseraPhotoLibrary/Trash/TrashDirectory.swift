#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One trash directory (`$trash`, holding `files/` and `info/`) and where the relative `Path`s
/// of its entries start. The specification puts that start at "the directory in which the
/// trash directory resides": the parent of the home trash and of `$topdir/.Trash-$uid`, and
/// `$topdir` for `$topdir/.Trash/$uid`, whose parent is the shared `.Trash`.
///
/// - Complexity: O(path length) for each path it works out.
struct TrashDirectory: Equatable {
  /// `$trash`.
  let path: String
  /// Where relative `Path`s start.
  let relativeBase: String
  /// Whether `Path`s are written relative to `relativeBase`: in a top directory's trash, not
  /// in the home trash (the specification recommends absolute paths only there).
  let writesRelativePaths: Bool

  init(path: String, writesRelativePaths: Bool) {
    self.path = path
    self.writesRelativePaths = writesRelativePaths
    let parent = TrashFileSystem.folder(of: path)
    relativeBase =
      TrashFileSystem.name(of: parent) == ".Trash" ? TrashFileSystem.folder(of: parent) : parent
  }

  /// The trash directory that holds an entry, worked out from its two paths; nil unless they
  /// are `$trash/files/NAME` and `$trash/info/NAME.trashinfo` of one absolute `$trash`.
  init?(trashedPath: String, infoPath: String) {
    let name = TrashFileSystem.name(of: trashedPath)
    let filesFolder = TrashFileSystem.folder(of: trashedPath)
    let infoFolder = TrashFileSystem.folder(of: infoPath)
    let trash = TrashFileSystem.folder(of: filesFolder)
    guard !name.isEmpty, trashedPath.hasPrefix("/"),
      TrashFileSystem.name(of: filesFolder) == "files",
      TrashFileSystem.name(of: infoFolder) == "info",
      TrashFileSystem.folder(of: infoFolder) == trash,
      TrashFileSystem.name(of: infoPath) == name + Self.infoExtension
    else { return nil }
    self.init(path: trash, writesRelativePaths: true)
  }

  static let infoExtension = ".trashinfo"

  var filesFolder: String { TrashFileSystem.join(path, "files") }
  var infoFolder: String { TrashFileSystem.join(path, "info") }

  func trashedPath(_ name: String) -> String { TrashFileSystem.join(filesFolder, name) }
  func infoPath(_ name: String) -> String {
    TrashFileSystem.join(infoFolder, name + Self.infoExtension)
  }

  /// The `Path` written for a file at the absolute `original`, which is on this trash's file
  /// system, so under `relativeBase` when `Path`s are relative.
  func pathValue(of original: String) -> String {
    let prefix = relativeBase.hasSuffix("/") ? relativeBase : relativeBase + "/"
    guard writesRelativePaths, original.hasPrefix(prefix) else { return original }
    return String(original.dropFirst(prefix.count))
  }

  /// The absolute path a `Path` value names: itself when absolute, else from `relativeBase`.
  func originalPath(of pathValue: String) -> String {
    pathValue.hasPrefix("/") ? pathValue : TrashFileSystem.join(relativeBase, pathValue)
  }
}
