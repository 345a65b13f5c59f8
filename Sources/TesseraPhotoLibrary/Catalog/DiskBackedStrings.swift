import Foundation
import TesseraUtilities

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An append-only store of strings kept in a file that no name points to (created, then
/// unlinked), so a 100,000-photo walk's paths live in the kernel's page cache, not in the
/// process: the page cache gives them back under memory pressure, the heap never would.
/// Strings appended since the last write-out are held in a buffer of at most `bufferLimit`
/// bytes. Where no file can be made (a full or read-only disk), every string stays in memory:
/// nothing is lost but the saving.
///
/// Not thread-safe: its owner serializes calls (`PhotoCatalog` holds it under a lock).
///
/// - Complexity: `append` O(length) amortized (a write of `bufferLimit` bytes every so
///   often); `string(at:)` O(length), one `pread` for a string written out. Memory O(1):
///   `bufferLimit` bytes.
final class DiskBackedStrings {
  /// Where a string lies: what `append` returns, `string(at:)` takes.
  struct Location: Equatable {
    var offset: Int
    var length: Int
  }

  let bufferLimit: Int
  private var descriptor: Int32
  /// Bytes already in the file; later strings are in `buffer`.
  private var written = 0
  private var buffer: [UInt8] = []
  /// The strings themselves when there is no file.
  private var inMemory: [UInt8] = []

  /// A store in a new unlinked file in the first of `folders` where one can be made.
  init(folders: [String] = DiskBackedStrings.defaultFolders, bufferLimit: Int = 64 * 1024) {
    self.bufferLimit = max(1, bufferLimit)
    descriptor = -1
    for folder in folders {
      descriptor = Self.unlinkedFile(in: folder)
      if descriptor >= 0 { break }
    }
    buffer.reserveCapacity(self.bufferLimit)
  }

  deinit {
    if descriptor >= 0 { close(descriptor) }
  }

  /// Whether the strings are in a file (false: all in memory).
  var isOnDisk: Bool { descriptor >= 0 }

  /// Bytes of every string appended.
  var count: Int { isOnDisk ? written + buffer.count : inMemory.count }

  /// Bytes held in the process (the buffer, or everything without a file).
  var bytesInMemory: Int { isOnDisk ? buffer.count : inMemory.count }

  /// The user's cache folder (usually a disk, where `/tmp` may be memory), then the
  /// temporary folder.
  static var defaultFolders: [String] {
    let cache = CacheHome.url.appendingPathComponent("tessera", isDirectory: true).path
    let temporary = ProcessInfo.processInfo.environment["TMPDIR"].flatMap {
      $0.hasPrefix("/") ? $0 : nil
    }
    return [cache, temporary ?? "/tmp"]
  }

  func append(_ text: String) -> Location {
    var text = text
    return text.withUTF8 { append(bytes: UnsafeRawBufferPointer($0)) }
  }

  func append(bytes: UnsafeRawBufferPointer) -> Location {
    guard isOnDisk else {
      let location = Location(offset: inMemory.count, length: bytes.count)
      inMemory.append(contentsOf: bytes)
      return location
    }
    if buffer.count + bytes.count > bufferLimit { writeOut() }
    let location = Location(offset: written + buffer.count, length: bytes.count)
    buffer.append(contentsOf: bytes)
    if buffer.count >= bufferLimit { writeOut() }
    return location
  }

  /// The string at `location`; empty when the file cannot be read back (it was unlinked at
  /// birth, so only a failing disk can do that).
  func string(at location: Location) -> String {
    guard isOnDisk else {
      return String(
        decoding: inMemory[location.offset..<location.offset + location.length], as: UTF8.self)
    }
    if location.offset >= written {
      let start = location.offset - written
      return String(decoding: buffer[start..<start + location.length], as: UTF8.self)
    }
    return String(unsafeUninitializedCapacity: location.length) { target in
      var done = 0
      while done < location.length {
        let count = pread(
          descriptor, target.baseAddress! + done, location.length - done,
          off_t(location.offset + done))
        if count < 0, errno == EINTR { continue }
        guard count > 0 else { return 0 }
        done += count
      }
      return done
    }
  }

  /// Moves the buffer to the file. A write that fails keeps the strings: they move to memory.
  private func writeOut() {
    guard !buffer.isEmpty else { return }
    var done = 0
    while done < buffer.count {
      let count = buffer.withUnsafeBytes { raw in
        pwrite(descriptor, raw.baseAddress! + done, raw.count - done, off_t(written + done))
      }
      if count < 0, errno == EINTR { continue }
      guard count > 0 else {
        fallBackToMemory()
        return
      }
      done += count
    }
    written += buffer.count
    buffer.removeAll(keepingCapacity: true)
  }

  /// Reads back what was written and goes on in memory (a disk that filled up mid-walk).
  private func fallBackToMemory() {
    var all = [UInt8](repeating: 0, count: written)
    let read = all.withUnsafeMutableBytes { raw in
      raw.count == 0 ? 0 : pread(descriptor, raw.baseAddress!, raw.count, 0)
    }
    if read != written { all = [UInt8](repeating: 0, count: written) }
    close(descriptor)
    descriptor = -1
    inMemory = all + buffer
    buffer = []
  }

  /// A file opened read-write in `folder` (made 0700 if missing) and unlinked at once:
  /// -1 when neither works.
  private static func unlinkedFile(in folder: String) -> Int32 {
    mkdir(folder, 0o700)
    var template = Array((folder + "/.tessera-strings-XXXXXX").utf8CString)
    let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    guard descriptor >= 0 else { return -1 }
    // Not inherited by `xdg-open` or the bench's children.
    _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
    template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
    return descriptor
  }
}
