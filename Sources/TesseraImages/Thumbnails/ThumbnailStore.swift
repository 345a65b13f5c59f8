import Foundation
import TesseraUtilities

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Why a thumbnail could not be written (the decode it came from still succeeds).
struct ThumbnailWriteError: Error, CustomStringConvertible {
  let description: String
}

extension ThumbnailCache {
  /// Writes `png` as the `size` thumbnail of `original`: into a temporary file (`0600`) in
  /// the same folder, then renamed over the old one, so a reader never sees half a file.
  /// Folders that are missing are made `0700`. Blocking.
  func store(
    _ png: Data, size: ThumbnailSize, for original: ThumbnailOriginal
  ) throws(ThumbnailWriteError) {
    try replaceFile(at: url(of: size, for: original.name), with: png)
  }

  /// Records that this Tessera could not decode `original` (a 1×1 PNG with its URI and
  /// modification time under `fail/tessera-<version>/`), so it is not tried again until the
  /// file changes. Blocking.
  func recordFailure(of original: ThumbnailOriginal, png: Data) throws(ThumbnailWriteError) {
    try replaceFile(at: failureURL(for: original.name), with: png)
  }

  private static let temporaryCounter = Locked(0)

  private func replaceFile(at url: URL, with data: Data) throws(ThumbnailWriteError) {
    let folder = url.deletingLastPathComponent()
    try makeFolders(folder)
    let serial = Self.temporaryCounter.withLock { counter in
      counter += 1
      return counter
    }
    let temporary = folder.appendingPathComponent(
      ".tessera-\(getpid())-\(serial).png.tmp"
    ).path
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

  /// Makes `folder` and every missing parent up to (and including) `directory`'s parent,
  /// each `0700`.
  private func makeFolders(_ folder: URL) throws(ThumbnailWriteError) {
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

  private func failure(_ what: String, _ path: String) -> ThumbnailWriteError {
    ThumbnailWriteError(
      description: "\(what) \(path): \(String(cString: strerror(errno)))")
  }
}
