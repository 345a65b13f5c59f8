import Foundation
import TesseraUtilities

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What a scan of the cache folder finds, and the file operations on it. Names and sizes come
/// from `lstat` (a link or anything but a regular file is not an entry); nothing is followed.
struct DiskCacheFolder {
  /// One entry file: its name, size and last use (its mtime).
  struct Entry {
    var name: String
    var size: Int
    var used: Double
  }

  static let entryExtension = ".tsr"
  static let temporaryPrefix = ".tmp-"

  let directory: URL

  /// The entry files, least recently used first, after removing temporary files older than
  /// `ImageLimits.staleTemporaryFileAge` on the wall clock (their writer died; a live writer's
  /// file is younger). O(n log n) in the folder's files.
  func scan(wallClock: Date) -> [Entry] {
    guard let stream = opendir(directory.path) else { return [] }
    defer { closedir(stream) }
    let folder = dirfd(stream)
    var entries: [Entry] = []
    while let record = readdir(stream) {
      let name = record.entryName
      let isEntry = name.hasSuffix(Self.entryExtension)
      let isTemporary = name.hasPrefix(Self.temporaryPrefix)
      guard isEntry || isTemporary else { continue }
      var status = stat()
      guard fstatat(folder, name, &status, AT_SYMLINK_NOFOLLOW) == 0 else { continue }
      let modified = Self.modificationTime(status)
      if isTemporary {
        if wallClock.timeIntervalSince1970 - modified > ImageLimits.staleTemporaryFileAge {
          unlinkat(folder, name, 0)
        }
        continue
      }
      guard (status.st_mode & S_IFMT) == S_IFREG else { continue }
      entries.append(Entry(name: name, size: Self.countedSize(status), used: modified))
    }
    entries.sort { ($0.used, $0.name) < ($1.used, $1.name) }
    return entries
  }

  /// The size of the regular file `name`, or nil when there is none.
  func size(of name: String) -> Int? {
    var status = stat()
    guard lstat(path(name), &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
      return nil
    }
    return Self.countedSize(status)
  }

  /// A file's size for adding up: within `0...ImageLimits.maxCountedFileBytes`.
  private static func countedSize(_ status: stat) -> Int {
    Int(status.st_size).clamped(to: 0...ImageLimits.maxCountedFileBytes)
  }

  /// `sizes` added up, saturating at `Int.max` instead of trapping. O(n).
  static func total(_ sizes: some Sequence<Int>) -> Int {
    sizes.reduce(0) { sum, size in
      let (result, overflow) = sum.addingReportingOverflow(size)
      return overflow ? .max : result
    }
  }

  /// Sets `name`'s mtime (its recency) without following a link.
  func touch(_ name: String, at date: Date) {
    var times = [Self.kernelTime(date), Self.kernelTime(date)]
    _ = utimensat(AT_FDCWD, path(name), &times, AT_SYMLINK_NOFOLLOW)
  }

  /// Sets an open file's mtime.
  static func touch(descriptor: Int32, at date: Date) {
    var times = [kernelTime(date), kernelTime(date)]
    _ = futimens(descriptor, &times)
  }

  /// A file's mtime in seconds since 1970.
  private static func modificationTime(_ status: stat) -> Double {
    #if canImport(Darwin)
      let time = status.st_mtimespec
    #else
      let time = status.st_mtim
    #endif
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
  }

  func remove(_ name: String) { unlink(path(name)) }

  func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

  /// `date` as a `timespec`, clamped to what the kernel stores (the injected clock of a test
  /// could say anything).
  private static func kernelTime(_ date: Date) -> timespec {
    let seconds = date.timeIntervalSince1970.clamped(to: 0...4_000_000_000, nan: 0)
    let whole = seconds.rounded(.down)
    return timespec(
      tv_sec: Int(clamping: whole, to: 0...4_000_000_000),
      tv_nsec: Int(clamping: (seconds - whole) * 1e9, to: 0...999_999_999))
  }
}
