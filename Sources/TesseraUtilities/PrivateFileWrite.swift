import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Replaces a file in a cache folder of this user's so that a reader (another process
/// included) sees the old file or the new one, never half of one: the bytes go into a
/// temporary file `0600` in the same folder, which is renamed over the old file. Folders
/// that are missing are made `0700`. Shared by the thumbnail cache and the photo facts store.
package enum PrivateFileWrite {
  /// Why the file was not written, with the path and the system's reason.
  package struct Failure: Error, CustomStringConvertible {
    package let description: String
  }

  private static let temporaryCounter = Locked(0)

  /// Writes `data` as the file at `url`. Blocking.
  /// - Parameter suffix: ends the temporary file's name (`.tessera-<pid>-<n><suffix>.tmp`).
  /// - Complexity: O(data) plus one system call per missing folder.
  package static func replace(
    _ url: URL, with data: Data, temporarySuffix suffix: String = ""
  ) throws(Failure) {
    let folder = url.deletingLastPathComponent()
    try makeFolders(folder)
    let serial = temporaryCounter.withLock { counter in
      counter += 1
      return counter
    }
    let temporary = folder.appendingPathComponent(".tessera-\(getpid())-\(serial)\(suffix).tmp")
      .path
    let descriptor = open(
      temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, S_IRUSR | S_IWUSR)
    guard descriptor >= 0 else { throw failure("cannot create", temporary) }
    var written = 0
    let ok = data.withUnsafeBytes { raw -> Bool in
      while written < raw.count {
        let count = write(descriptor, raw.baseAddress! + written, raw.count - written)
        if count < 0 {
          if errno == EINTR { continue }
          return false
        }
        written += count
      }
      // The umask may have taken bits away, never added any: 0600 exactly.
      return fchmod(descriptor, S_IRUSR | S_IWUSR) == 0
    }
    let closed = close(descriptor) == 0
    guard ok, closed, rename(temporary, url.path) == 0 else {
      let error = failure("cannot write", temporary)
      unlink(temporary)
      throw error
    }
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
      throw failure("cannot make the folder", path)
    }
  }

  private static func failure(_ what: String, _ path: String) -> Failure {
    Failure(description: "\(what) \(path): \(String(cString: strerror(errno)))")
  }
}
