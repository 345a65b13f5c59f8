import Foundation
import TesseraGeometry
import TesseraPhotoFormats
import TesseraUtilities

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Why a local file was not read. Each case reads as the end of a sentence about the file:
/// "“x.jpg” is a symbolic link".
package enum LocalFileRefusal: Error, Equatable, CustomStringConvertible {
  /// The path's last component is a symbolic link; links are never followed.
  case symbolicLink
  /// A FIFO, socket, device or folder: opening or reading it could block or mean nothing.
  case notRegularFile(kind: String)
  /// Larger than the limit the caller allows.
  case tooLarge(limit: Int)
  /// `open`, `fstat` or `read` failed.
  case unreadable(String)

  package var description: String {
    switch self {
    case .symbolicLink: "is a symbolic link"
    case .notRegularFile(let kind): "is not a regular file (it is \(kind))"
    case .tooLarge(let limit): "is larger than \(ByteCount.text(limit))"
    case .unreadable(let reason): "can't be read (\(reason))"
    }
  }
}

/// The first bytes of a local file, read as `SafeFileRead` reads every path from a folder
/// listing (no symlink followed, no FIFO blocking, `fstat` on the opened descriptor), with the
/// refusal in the words the feed shows.
///
/// Blocking I/O: call it off the cooperative pool (see `BlockingWork`). O(limit).
package enum LocalFile {
  /// What was read, with the facts `fstat` gave on the same descriptor.
  package struct Prefix {
    package var bytes: [UInt8]
    /// The file's whole size.
    package var size: Int
    package var modified: Date
  }

  package static func readPrefix(
    path: String, limit: Int, maxFileSize: Int
  ) -> Result<Prefix, LocalFileRefusal> {
    SafeFileRead.contents(path: path, maxFileSize: maxFileSize, prefix: limit)
      .map { Prefix(bytes: [UInt8]($0.bytes), size: $0.size, modified: $0.modified) }
      .mapError { refusal in
        switch refusal {
        case .symbolicLink: .symbolicLink
        case .notFound: .unreadable(String(cString: strerror(ENOENT)))
        case .notRegularFile(let kind): .notRegularFile(kind: kind)
        case .tooLarge(_, let limit): .tooLarge(limit: limit)
        case .unreadable(let reason): .unreadable(reason)
        }
      }
  }
}

extension ImageHeader {
  /// The pixel size of a local file, read through `LocalFile` (no symlinks, no FIFOs, size
  /// checked on the descriptor). Blocking: call it off the cooperative pool.
  package static func pixelSize(of file: URL) -> PixelSize? {
    let read = LocalFile.readPrefix(
      path: file.path, limit: FeedLimits.maxHeaderBytes, maxFileSize: FeedLimits.maxLocalFileBytes)
    guard case .success(let prefix) = read else { return nil }
    return pixelSize(prefix.bytes)
  }
}
