import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Replaces a file in a cache folder of this user's so that a reader (another process
/// included) sees the old file or the new one, never half of one (`FileReplacement`), `0600`.
/// Folders that are missing are made `0700`. Shared by the thumbnail cache and the photo
/// facts store.
package enum PrivateFileWrite {
  /// Why the file was not written, with the path and the system's reason.
  package typealias Failure = FileReplacement.Failure

  /// Writes `data` as the file at `url`. Blocking.
  /// - Parameter suffix: ends the temporary file's name (`.tessera-<pid>-<n><suffix>.tmp`).
  /// - Complexity: O(data) plus one system call per missing folder.
  package static func replace(
    _ url: URL, with data: Data, temporarySuffix suffix: String = ""
  ) throws(Failure) {
    try makeFolders(url.deletingLastPathComponent())
    try FileReplacement.replace(
      url.path, with: data, mode: S_IRUSR | S_IWUSR, temporarySuffix: suffix)
  }

  /// Makes `folder` and every missing parent, each `0700`.
  private static func makeFolders(_ folder: URL) throws(Failure) {
    var missing: [String] = []
    var current = folder.standardizedFileURL
    var status = stat()
    while stat(current.path, &status) != 0 {
      missing.append(current.path)
      let parent = current.deletingLastPathComponent()
      guard parent.path != current.path else { break }
      current = parent
    }
    for path in missing.reversed() where mkdir(path, S_IRWXU) != 0 && errno != EEXIST {
      throw FileReplacement.failure("cannot make the folder", path)
    }
  }
}
