import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads a local file the only way a path from a folder listing may be read, for every module
/// that reads one (the folder walk's headers, the pipeline's local photos, the disk cache):
///
/// - `open(O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)`: a symbolic link is refused, not
///   followed out of the folder; opening a FIFO or a device cannot hang;
/// - `fstat` on the opened descriptor (not the path, which could change in between) must say
///   regular file, no larger than `maxFileSize`;
/// - at most `prefix` bytes are read, and a file that grows past `maxFileSize` while it is read
///   is refused.
///
/// Blocking I/O: call it off the cooperative pool.
/// - Complexity: O(bytes read).
package enum SafeFileRead {
  /// What was read, with the facts `fstat` gave on the same descriptor.
  package struct Contents: Sendable {
    package var bytes: Data
    /// The file's whole size when it was opened.
    package var size: Int
    package var modified: Date
  }

  /// Why nothing was read.
  package enum Refusal: Error, Equatable, Sendable {
    case symbolicLink
    case notFound
    /// A FIFO, socket, device or folder, named.
    case notRegularFile(kind: String)
    /// `size` (stated or read so far) is over `limit`.
    case tooLarge(size: Int, limit: Int)
    /// `open`, `fstat` or `read` failed for another reason, described.
    case unreadable(String)
  }

  /// The first `prefix` bytes (the whole file when nil) of the regular file at `path`, which
  /// may be at most `maxFileSize` bytes long.
  package static func contents(
    path: String, maxFileSize: Int, prefix: Int? = nil
  ) -> Result<Contents, Refusal> {
    withRegularFile(path: path, maxFileSize: maxFileSize) { descriptor, size, limit, modified in
      readPrefix(descriptor, size: size, limit: limit, prefix: prefix, modified: modified)
    }
  }

  private static func readPrefix(
    _ descriptor: Int32, size: Int, limit: Int, prefix: Int?, modified: Date
  ) -> Result<Contents, Refusal> {
    let wanted = prefix.map { $0.clamped(to: 0...limit) } ?? limit
    // Whole-file reads go one byte past the limit, to notice a file that grew meanwhile.
    let stop = prefix == nil ? limit + 1 : wanted
    // Read straight into the result, sized by fstat: one copy (a 3.5 MB photo appended 64 KiB
    // at a time through an array slice cost more than decoding its embedded thumbnail).
    // (One byte more than fstat said for a whole-file read: the read that finds the end then
    // needs no room made for it.)
    var bytes = Data(count: min(size + (prefix == nil ? 1 : 0), stop))
    var filled = 0
    while filled < stop {
      if filled == bytes.count {
        // Empty, or grown since fstat: room for one more chunk.
        bytes.count = min(stop, filled + (1 << 20))
      }
      let count = bytes.withUnsafeMutableBytes { raw in
        read(descriptor, raw.baseAddress! + filled, raw.count - filled)
      }
      if count < 0, errno == EINTR { continue }
      guard count >= 0 else { return .failure(refusal(errno)) }
      if count == 0 { break }
      filled += count
    }
    bytes.count = filled
    guard filled <= limit else { return .failure(.tooLarge(size: filled, limit: limit)) }
    return .success(Contents(bytes: bytes, size: size, modified: modified))
  }

  /// At most `count` bytes from `offset` of the regular file at `path` (fewer at its end, none
  /// from at or past it), opened and checked as `contents(path:maxFileSize:prefix:)` opens and
  /// checks it: a second look into a file whose first bytes said where to look (a HEIF file's
  /// Exif item). `offset` and `count` are clamped to 0…`maxFileSize` before any arithmetic.
  ///
  /// - Complexity: O(bytes read).
  package static func contents(
    path: String, maxFileSize: Int, offset: Int, count: Int
  ) -> Result<Contents, Refusal> {
    withRegularFile(path: path, maxFileSize: maxFileSize) { descriptor, size, limit, modified in
      let start = offset.clamped(to: 0...limit)
      // Both at most `limit`: the sum cannot overflow.
      let stop = min(start + count.clamped(to: 0...limit), size)
      var bytes = Data(count: max(0, stop - start))
      var filled = 0
      while filled < bytes.count {
        let read = bytes.withUnsafeMutableBytes { raw in
          pread(descriptor, raw.baseAddress! + filled, raw.count - filled, off_t(start + filled))
        }
        if read < 0, errno == EINTR { continue }
        guard read >= 0 else { return .failure(refusal(errno)) }
        if read == 0 { break }  // shrunk since fstat
        filled += read
      }
      bytes.count = filled
      return .success(Contents(bytes: bytes, size: size, modified: modified))
    }
  }

  /// Opens `path` (no symlink followed, never blocking), checks on the descriptor that it is a
  /// regular file of at most `maxFileSize` bytes, and hands `body` the descriptor, the file's
  /// size, the limit (`maxFileSize`, at least 0) and its modification date; closes it after.
  package static func withRegularFile<Value>(
    path: String, maxFileSize: Int,
    _ body: (_ descriptor: Int32, _ size: Int, _ limit: Int, _ modified: Date) -> Result<
      Value, Refusal
    >
  ) -> Result<Value, Refusal> {
    let descriptor = FileSystemName.withCString(path) {
      open($0, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
    }
    guard descriptor >= 0 else { return .failure(refusal(errno)) }
    defer { close(descriptor) }
    var info = stat()
    guard fstat(descriptor, &info) == 0 else { return .failure(refusal(errno)) }
    let type = info.st_mode & S_IFMT
    guard type == S_IFREG else { return .failure(.notRegularFile(kind: kind(type))) }
    let limit = max(0, maxFileSize)
    let size = Int(info.st_size)  // off_t is 64 bits; a regular file's size is never negative
    guard size <= limit else { return .failure(.tooLarge(size: size, limit: limit)) }
    return body(descriptor, size, limit, modificationDate(info))
  }

  private static func refusal(_ code: Int32) -> Refusal {
    switch code {
    // O_NOFOLLOW on a link: ELOOP on Linux, EMLINK on FreeBSD.
    case ELOOP, EMLINK: .symbolicLink
    case ENOENT, ENOTDIR: .notFound
    // O_NONBLOCK on a FIFO with no writer opens fine; on some devices it cannot.
    case ENXIO, ENODEV: .notRegularFile(kind: "a device")
    case EISDIR: .notRegularFile(kind: "a folder")
    case EWOULDBLOCK: .notRegularFile(kind: "not a file")
    case EACCES: .unreadable("permission denied")
    default: .unreadable(String(cString: strerror(code)))
    }
  }

  private static func kind(_ type: mode_t) -> String {
    switch type {
    case S_IFIFO: "a FIFO"
    case S_IFSOCK: "a socket"
    case S_IFCHR, S_IFBLK: "a device"
    case S_IFDIR: "a folder"
    default: "not a file"
    }
  }

  private static func modificationDate(_ info: stat) -> Date {
    #if canImport(Darwin)
      let time = info.st_mtimespec
    #else
      let time = info.st_mtim
    #endif
    return Date(timeIntervalSince1970: Double(time.tv_sec) + Double(time.tv_nsec) / 1e9)
  }
}
