import Foundation
import TesseraUtilities

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A local original as the thumbnail standard identifies it: its URI (and the URI's MD5), its
/// modification time in whole seconds and its size in bytes, from `lstat` (a symbolic link is
/// not an original: the pipeline's reader refuses it too).
struct ThumbnailOriginal: Hashable, Sendable {
  let path: String
  let name: ThumbnailURI
  /// `st_mtime`, the value `Thumb::MTime` must match.
  let modified: Int
  /// `st_size`, the value `Thumb::Size` must match when a thumbnail states it.
  let byteCount: Int

  /// The original at `path`, or nil when it is not a regular file that can be stat'ed.
  static func at(path: String) -> ThumbnailOriginal? {
    var status = stat()
    guard FileSystemName.withCString(path, { lstat($0, &status) }) == 0,
      (status.st_mode & S_IFMT) == S_IFREG
    else { return nil }
    return ThumbnailOriginal(
      path: path, name: ThumbnailURI(path: path), modified: Int(status.st_mtim.tv_sec),
      byteCount: Int(status.st_size))
  }
}
