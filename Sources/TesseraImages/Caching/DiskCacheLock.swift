import Foundation
import TesseraUtilities

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The disk-cache folder's lock file, `.lock`, held with `flock` while an entry is renamed into
/// place, removed or evicted: processes sharing the folder (two galleries, a gallery and a
/// bench) take turns, so the size limit holds for what they store together. The file also
/// holds the folder's size (`DiskCacheLedger`).
///
/// `flock` belongs to an open file description, so two threads of one process would share it:
/// an in-process lock is taken first. Each `DiskCache` opens the file itself, so two instances
/// on one folder exclude each other exactly as two processes do.
final class DiskCacheLock: Sendable {
  static let fileName = ".lock"

  private let descriptor: Locked<Int32>

  init(directory: URL) throws {
    let path = directory.appendingPathComponent(Self.fileName).path
    let descriptor = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else {
      throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
    }
    self.descriptor = Locked(descriptor)
  }

  deinit { descriptor.withLock { _ = close($0) } }

  /// Runs `body` holding the lock, with the folder's size as the ledger states it (nil when it
  /// is unknown or unreadable: scan); what `body` leaves there is written back.
  ///
  /// A file system without `flock` support (some network mounts) only gets the in-process
  /// lock: sharing such a folder between processes is then best effort.
  func withLock<Result>(_ body: (inout Int?) -> Result) -> Result {
    descriptor.withLock { descriptor in
      while flock(descriptor, LOCK_EX) != 0, errno == EINTR {}
      defer { _ = flock(descriptor, LOCK_UN) }
      var ledger = Self.readLedger(descriptor)
      let before = ledger
      let result = body(&ledger)
      if let ledger, ledger != before { Self.writeLedger(ledger, descriptor) }
      return result
    }
  }

  private static func readLedger(_ descriptor: Int32) -> Int? {
    var buffer = [UInt8](repeating: 0, count: 32)
    let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
    guard count > 0 else { return nil }
    return DiskCacheLedger.parse(Data(buffer[0..<count]))
  }

  private static func writeLedger(_ total: Int, _ descriptor: Int32) {
    let text = DiskCacheLedger.text(total)
    _ = ftruncate(descriptor, 0)
    _ = text.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
  }
}
