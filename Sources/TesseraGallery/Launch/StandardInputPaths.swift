import Foundation
import TesseraPhotoFormats
import TesseraPhotoLibrary
import TesseraUtilities

/// The files `tessera -i` shows: standard input's lines (or NUL-separated names), in order,
/// those that are readable image files; the rest are counted, never fatal.
struct StandardInputPaths: Equatable {
  var paths: [String]
  /// Lines (names) that were not readable image files.
  var rejected: Int

  /// Most bytes read from standard input: 64 MiB, some 500,000 paths; the rest is ignored.
  static let maximumBytes = 64 << 20

  /// What the status bar says about the rejected lines; nil when there were none.
  var notice: String? {
    guard rejected > 0 else { return nil }
    return rejected == 1
      ? "1 line of standard input is not a readable image file"
      : "\(rejected) lines of standard input are not readable image files"
  }

  /// Reads `descriptor` to its end (at most ``maximumBytes``) and keeps the names of readable
  /// image files (a regular file with an image extension), at most `FeedLimits.maxWalkFiles`.
  static func read(
    from descriptor: Int32, nullSeparated: Bool
  ) throws(GalleryError)
    -> StandardInputPaths
  {
    guard isatty(descriptor) == 0 else {
      throw GalleryError(
        description: "-i reads the files to show from standard input: pipe them in "
          + "(find ~/Pictures -name '*.jpg' | tessera -i)")
    }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while bytes.count < maximumBytes {
      let count = Foundation.read(descriptor, &buffer, buffer.count)
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { break }
      bytes.append(contentsOf: buffer[0..<min(count, maximumBytes - bytes.count)])
    }
    return parse(bytes, nullSeparated: nullSeparated)
  }

  /// The names in `bytes`, checked on disk.
  static func parse(_ bytes: [UInt8], nullSeparated: Bool) -> StandardInputPaths {
    let separator: UInt8 = nullSeparated ? 0 : 0x0A
    var result = StandardInputPaths(paths: [], rejected: 0)
    for line in bytes.split(separator: separator, omittingEmptySubsequences: true) {
      var name = line
      if !nullSeparated, name.last == 0x0D { name = name.dropLast() }  // CRLF lines
      guard !name.isEmpty else { continue }
      let path = String(decoding: name, as: UTF8.self)
      guard result.paths.count < FeedLimits.maxWalkFiles, isImageFile(path) else {
        result.rejected += 1
        continue
      }
      result.paths.append(path)
    }
    return result
  }

  /// A regular file (after links) whose extension an image has.
  static func isImageFile(_ path: String) -> Bool {
    var info = stat()
    guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return false }
    let name = path.split(separator: "/").last.map(String.init) ?? path
    guard let dot = name.lastIndex(of: ".") else { return false }
    let suffix = name[name.index(after: dot)...].lowercased()
    return FolderWalker.imageExtensions.contains(suffix) || VideoFile.extensions.contains(suffix)
  }
}
