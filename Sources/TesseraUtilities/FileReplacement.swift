import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Replaces a file so that a reader (another process included) sees the old file or the new
/// one, never half of one: the bytes go into a temporary file in the same folder (a hidden
/// name, `O_EXCL`, no symbolic link followed), which is renamed over the old file. The cache
/// writes through `PrivateFileWrite`; a culling sidecar, a person's own file, is written
/// `durable`: its bytes reach the disk before the rename, and the rename before the return.
package enum FileReplacement {
  /// Why the file was not written, with the path and the system's reason.
  package struct Failure: Error, CustomStringConvertible {
    package let description: String
    /// The system's error number.
    package let code: Int32
  }

  private static let temporaryCounter = Locked(0)

  /// Writes `data` as the file at `path`, with exactly `mode`'s permission bits (the umask
  /// is not applied). Blocking.
  /// - Parameter suffix: ends the temporary file's name (`.tessera-<pid>-<n><suffix>.tmp`).
  /// - Complexity: O(data); with `durable`, two `fsync`s.
  package static func replace(
    _ path: String, with data: Data, mode: mode_t, durable: Bool = false,
    temporarySuffix suffix: String = ""
  ) throws(Failure) {
    let slash = path.utf8.lastIndex(of: UInt8(ascii: "/"))
    let folder = slash.map { String(path[..<$0]) } ?? "."
    let serial = temporaryCounter.withLock { counter in
      counter += 1
      return counter
    }
    let temporary =
      (folder.isEmpty ? "" : folder + "/") + ".tessera-\(getpid())-\(serial)\(suffix).tmp"
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
      // The umask may have taken bits away, never added any: the mode exactly.
      return fchmod(descriptor, mode) == 0 && (!durable || fsync(descriptor) == 0)
    }
    let closed = close(descriptor) == 0
    guard ok, closed, rename(temporary, path) == 0 else {
      let error = failure("cannot write", temporary)
      unlink(temporary)
      throw error
    }
    if durable {
      // The rename itself is durable once the folder's entry is.
      let folderDescriptor = open(folder.isEmpty ? "/" : folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
      if folderDescriptor >= 0 {
        _ = fsync(folderDescriptor)
        close(folderDescriptor)
      }
    }
  }

  static func failure(_ what: String, _ path: String) -> Failure {
    let code = errno
    return Failure(description: "\(what) \(path): \(String(cString: strerror(code)))", code: code)
  }
}
