import Foundation
import Logging
import TesseraUtilities

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Downloaded image bytes on disk, one file per entry, with their HTTP caching metadata.
///
/// - Files are named by a 128-bit hash of the key; the key is stored inside and verified on
///   read, with the body's length and checksum (`DiskCacheRecord`), so a corrupt or truncated
///   file is detected, deleted and reported as a miss (the pipeline then loads it again).
/// - Writes go to a temporary file named after this process (pid and a counter), renamed
///   over the entry: a crash leaves the old entry or the new one, never half of one. A write
///   that fails removes its own temporary file; others' are removed only once stale
///   (`ImageLimits.staleTemporaryFileAge`), so a live writer's file is never taken from it.
/// - Several processes (and several instances) may share the folder. Renames, removals and
///   evictions happen under an `flock`ed lock file (`DiskCacheLock`) that also keeps the
///   folder's total size, so `sizeLimit` holds for what all of them store together: when the
///   total passes it, the folder is scanned under the lock and the least recently used
///   entries (by mtime, which every reader updates) are evicted down to 90% of the limit.
/// - Thread-safe. `store` is O(size) plus, once per 10% of the limit written when full, a
///   folder scan (O(n log n)); `entry(for:)` is O(size); `contains` is O(1) against this
///   instance's index (entries another process wrote join it at the next scan or read).
public final class DiskCache: Sendable {
  /// Counters since this instance was opened, plus the folder's size and entry count.
  public struct Statistics: Sendable, Hashable {
    /// Reads that found a verified entry.
    public var hits = 0
    /// Reads that found nothing usable (no file, another key's file, a corrupt one).
    public var misses = 0
    /// Entries stored.
    public var writes = 0
    /// Entries removed to keep the folder under its size limit.
    public var evictions = 0
    /// Files deleted because they failed verification or were not this cache's.
    public var corruptEntriesRemoved = 0
    /// Bytes in the folder, every process's entries included, as of this instance's last
    /// write, removal or scan.
    public var totalSize = 0
    /// Entries this instance knows of.
    public var count = 0
  }

  /// write(2)'s shape: bytes written, or -1 with `errno` set. Tests inject a failing one.
  typealias WriteFunction = @Sendable (Int32, UnsafeRawBufferPointer) -> Int

  private struct State {
    /// Entry file name → size.
    var index: [String: Int] = [:]
    var statistics = Statistics()
  }

  /// The folder the entries live in.
  public let directory: URL
  /// Bytes on disk (headers included) that every process sharing the folder stays under.
  public let sizeLimit: Int
  private let now: @Sendable () -> Date
  private let state = Locked(State())
  private let lock: DiskCacheLock
  private let folder: DiskCacheFolder
  private let writeBytes: WriteFunction
  private let logger: Logger

  /// `$XDG_CACHE_HOME/tessera/images`, or `~/.cache/tessera/images`.
  public static var defaultDirectory: URL {
    CacheHome.url.appendingPathComponent("tessera/images", isDirectory: true)
  }

  /// Opens (creating if needed) the cache in `directory`, indexing the entries already there
  /// and removing stale temporary files.
  /// - Parameters:
  ///   - directory: the folder; `defaultDirectory` unless given. Processes may share it.
  ///   - sizeLimit: bytes on disk, headers included, for every process using the folder.
  ///     Default 512 MiB.
  ///   - now: the clock used for freshness and recency (tests inject one). Temporary files
  ///     are judged stale on the wall clock, as the kernel stamps them.
  ///   - logger: where failed writes and corrupt entries are reported, at debug level.
  public convenience init(
    directory: URL = DiskCache.defaultDirectory, sizeLimit: Int = 512 << 20,
    now: @escaping @Sendable () -> Date = { Date() },
    logger: Logger = Logger(label: "tessera.images")
  ) throws {
    try self.init(
      directory: directory, sizeLimit: sizeLimit, now: now,
      writeBytes: { descriptor, bytes in write(descriptor, bytes.baseAddress, bytes.count) },
      logger: logger)
  }

  init(
    directory: URL, sizeLimit: Int, now: @escaping @Sendable () -> Date,
    writeBytes: @escaping WriteFunction, logger: Logger = Logger(label: "tessera.images")
  ) throws {
    self.directory = directory
    self.sizeLimit = max(0, sizeLimit)
    self.now = now
    self.writeBytes = writeBytes
    self.logger = logger
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    self.lock = try DiskCacheLock(directory: directory)
    self.folder = DiskCacheFolder(directory: directory)
    lock.withLock { ledger in ledger = rescan() }
  }

  /// A snapshot of the counters.
  public var statistics: Statistics { state.withLock { $0.statistics } }
  /// Bytes in the folder as of this instance's last write, removal or scan.
  public var totalSize: Int { statistics.totalSize }

  /// Whether this instance knows an entry for `key` (not verified; no I/O). O(1).
  public func contains(_ key: String) -> Bool {
    state.withLock { $0.index[fileName(for: key)] != nil }
  }

  /// The verified entry for `key`, which becomes the most recently used; nil on a miss. A
  /// corrupt or truncated file is deleted and counted in `corruptEntriesRemoved`. The file is
  /// read like a local-folder image (`LocalFileReader`): no link followed, a regular file no
  /// larger than the limit.
  public func entry(for key: String) -> DiskCacheEntry? {
    let name = fileName(for: key)
    let file: Data
    do {
      file = try LocalFileReader.contentsBlocking(atPath: folder.path(name), maxBytes: sizeLimit)
    } catch {
      switch error {
      case .fileRefused(_, .symbolicLink), .fileRefused(_, .notARegularFile), .tooLarge:
        remove(name, corrupt: true)  // not something this cache wrote
      default:
        state.withLock { state in
          forget(name, in: &state)
          state.statistics.misses += 1
        }
      }
      return nil
    }
    guard let entry = DiskCacheRecord.decode(file) else {
      remove(name, corrupt: true)
      return nil
    }
    guard entry.key == key else {
      state.withLock { $0.statistics.misses += 1 }  // a hash collision: the other key's file
      return nil
    }
    state.withLock { state in
      state.index[name] = file.count
      state.statistics.count = state.index.count
      state.statistics.hits += 1
    }
    folder.touch(name, at: now())
    return entry
  }

  /// Stores `data` for `key`, replacing any older entry, then evicts until the size limit
  /// holds for the folder. Returns false when the entry alone is over the limit or the write
  /// failed (its temporary file is removed then).
  @discardableResult
  public func store(_ data: Data, metadata: HTTPCacheMetadata, for key: String) -> Bool {
    guard let file = DiskCacheRecord.encode(data, metadata: metadata, for: key),
      file.count <= sizeLimit
    else { return false }
    let name = fileName(for: key)
    let temporary = folder.path(nextTemporaryName())
    guard let descriptor = writeTemporary(file, to: temporary) else {
      logger.debug(
        "disk cache write failed",
        metadata: ["key": "\(key)", "folder": "\(directory.path)"])
      return false
    }
    defer { close(descriptor) }
    return lock.withLock { ledger in
      let replaced = folder.size(of: name) ?? 0
      guard rename(temporary, folder.path(name)) == 0 else {
        logger.debug(
          "disk cache write failed",
          metadata: ["key": "\(key)", "folder": "\(directory.path)", "step": "rename"])
        unlink(temporary)
        return false
      }
      // Recency is the mtime, on this cache's clock, set once the file is in place (a
      // temporary file keeps the kernel's stamp, which staleness is judged by).
      DiskCacheFolder.touch(descriptor: descriptor, at: now())
      state.withLock { state in
        state.index[name] = file.count
        state.statistics.count = state.index.count
        state.statistics.writes += 1
      }
      // The ledger parses to at most 10^18 and both sizes are at most 2^40: no overflow.
      var total = ledger.map { max(0, $0 + file.count - replaced) } ?? rescan()
      if total > sizeLimit { total = rescan() }
      ledger = total
      state.withLock { $0.statistics.totalSize = total }
      return true
    }
  }

  /// Removes the entry for `key`, if there is one.
  public func removeEntry(for key: String) {
    remove(fileName(for: key), corrupt: false)
  }

  /// Removes every entry in the folder, other processes' included.
  public func removeAll() {
    lock.withLock { ledger in
      for entry in folder.scan(wallClock: Date()) { folder.remove(entry.name) }
      state.withLock { state in
        state.index.removeAll()
        state.statistics.totalSize = 0
        state.statistics.count = 0
      }
      ledger = 0
    }
  }

  /// The file an entry for `key` lives in.
  public func fileURL(for key: String) -> URL {
    directory.appendingPathComponent(fileName(for: key))
  }

  /// The current time on this cache's clock.
  public var currentDate: Date { now() }

  // MARK: Internals

  private var evictionTarget: Int {
    Int(clamping: Double(sizeLimit) * ImageLimits.diskEvictionTarget, to: 0...sizeLimit)
  }

  private func fileName(for key: String) -> String {
    StableHash.wideHex(key) + DiskCacheFolder.entryExtension
  }

  /// Temporary files written by this process so far, across instances.
  private static let temporaryCounter = Locked<UInt64>(0)

  /// `.tmp-<pid>-<counter>`: unique among live writers, so none removes another's.
  private func nextTemporaryName() -> String {
    let counter = Self.temporaryCounter.withLock { counter in
      counter &+= 1
      return counter
    }
    return DiskCacheFolder.temporaryPrefix + "\(getpid())-\(counter)"
  }

  /// Writes `file` to a new temporary file and returns its open descriptor, or nil (with the
  /// temporary file removed) when any step fails.
  private func writeTemporary(_ file: Data, to path: String) -> Int32? {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { return nil }
    var written = 0
    let complete = file.withUnsafeBytes { bytes in
      while written < bytes.count {
        let count = writeBytes(descriptor, UnsafeRawBufferPointer(rebasing: bytes[written...]))
        if count < 0, errno == EINTR { continue }
        guard count > 0 else { return false }
        written += count
      }
      return true
    }
    guard complete else {
      close(descriptor)
      unlink(path)
      return nil
    }
    return descriptor
  }

  /// Removes one entry under the lock, keeping the ledger right.
  private func remove(_ name: String, corrupt: Bool) {
    if corrupt {
      logger.debug(
        "disk cache entry is corrupt or not ours: removed",
        metadata: ["file": "\(name)", "folder": "\(directory.path)"])
    }
    lock.withLock { ledger in
      let size = folder.size(of: name)
      if size != nil || corrupt { folder.remove(name) }
      if let size, let total = ledger { ledger = max(0, total - size) }
      state.withLock { state in
        forget(name, in: &state)
        if corrupt {
          state.statistics.corruptEntriesRemoved += 1
          state.statistics.misses += 1
        }
        if let total = ledger { state.statistics.totalSize = total }
      }
    }
  }

  private func forget(_ name: String, in state: inout State) {
    state.index.removeValue(forKey: name)
    state.statistics.count = state.index.count
  }

  /// Scans the folder (the caller holds the lock); when it is over the limit, evicts the least
  /// recently used entries down to `evictionTarget`. Re-indexes what is left and returns its
  /// size. O(n log n).
  private func rescan() -> Int {
    let entries = folder.scan(wallClock: Date())
    var total = DiskCacheFolder.total(entries.map(\.size))
    let target = total > sizeLimit ? evictionTarget : total
    var evicted = 0
    for entry in entries where total > target {
      folder.remove(entry.name)
      total -= entry.size
      evicted += 1
    }
    let kept = entries.dropFirst(evicted)
    state.withLock { state in
      state.index = Dictionary(kept.map { ($0.name, $0.size) }, uniquingKeysWith: { $1 })
      state.statistics.evictions += evicted
      state.statistics.totalSize = total
      state.statistics.count = state.index.count
    }
    return total
  }
}
