import Foundation
import TesseraUtilities

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Why a local file was not read. Each case reads as the end of a sentence about the file:
/// "“x.jpg” is a symbolic link".
enum LocalFileRefusal: Error, Equatable, CustomStringConvertible {
  /// The path's last component is a symbolic link; links are never followed.
  case symbolicLink
  /// A FIFO, socket, device or folder: opening or reading it could block or mean nothing.
  case notRegularFile(kind: String)
  /// Larger than the limit the caller allows.
  case tooLarge(limit: Int)
  /// `open`, `fstat` or `read` failed.
  case unreadable(String)

  var description: String {
    switch self {
    case .symbolicLink: "is a symbolic link"
    case .notRegularFile(let kind): "is not a regular file (it is \(kind))"
    case .tooLarge(let limit): "is larger than \(ByteCount.text(limit))"
    case .unreadable(let reason): "can't be read (\(reason))"
    }
  }
}

/// The first bytes of a local file, read the only way a path from a folder listing may be read:
/// `open(O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)` (a symlink fails, a FIFO does not
/// block), then `fstat` on the descriptor (what was opened is what is checked: a regular file
/// within the size limit), then at most `limit` bytes.
///
/// Blocking I/O: call it off the cooperative pool (see `BlockingWork`). O(limit).
enum LocalFile {
  /// What was read, with the facts `fstat` gave on the same descriptor.
  struct Prefix {
    var bytes: [UInt8]
    /// The file's whole size.
    var size: Int
    var modified: Date
  }

  static func readPrefix(
    path: String, limit: Int, maxFileSize: Int
  ) -> Result<Prefix, LocalFileRefusal> {
    let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
    guard descriptor >= 0 else {
      let code = errno
      return .failure(code == ELOOP ? .symbolicLink : .unreadable(reason(code)))
    }
    defer { close(descriptor) }
    var info = stat()
    guard fstat(descriptor, &info) == 0 else { return .failure(.unreadable(reason(errno))) }
    let type = info.st_mode & S_IFMT
    guard type == S_IFREG else { return .failure(.notRegularFile(kind: kind(type))) }
    let size = Int(info.st_size)
    guard size <= maxFileSize else { return .failure(.tooLarge(limit: maxFileSize)) }
    let wanted = min(size, limit.clamped(to: 0...Int(Int32.max)))
    var bytes = [UInt8](repeating: 0, count: wanted)
    var filled = 0
    while filled < wanted {
      let count = bytes.withUnsafeMutableBytes { buffer in
        read(descriptor, buffer.baseAddress.map { $0 + filled }, wanted - filled)
      }
      if count < 0, errno == EINTR { continue }
      guard count >= 0 else { return .failure(.unreadable(reason(errno))) }
      if count == 0 { break }
      filled += count
    }
    bytes.removeSubrange(filled...)
    let modified = modificationDate(info)
    return .success(Prefix(bytes: bytes, size: size, modified: modified))
  }

  private static func modificationDate(_ info: stat) -> Date {
    #if canImport(Darwin)
      let time = info.st_mtimespec
    #else
      let time = info.st_mtim
    #endif
    return Date(timeIntervalSince1970: Double(time.tv_sec) + Double(time.tv_nsec) / 1e9)
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

  private static func reason(_ code: Int32) -> String {
    code == EACCES ? "permission denied" : String(cString: strerror(code))
  }
}
