import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One verified entry read back from the disk cache.
public struct DiskCacheEntry: Sendable {
  public let key: String
  public let data: Data
  public let metadata: HTTPCacheMetadata
}

/// Downloaded image bytes on disk, one file per entry, with their HTTP caching metadata.
///
/// - Files are named by a 128-bit hash of the key; the key is stored inside and verified on
///   read, with the body's length and checksum, so a corrupt or truncated file is detected,
///   deleted and reported as a miss (the pipeline then loads the image again).
/// - Writes go to a temporary file renamed over the entry: a crash leaves the old entry or
///   the new one, never half of one.
/// - `sizeLimit` holds after every write: the least recently read or written entries are
///   evicted at once, not by a later sweep. Recency survives restarts as the file's mtime.
/// - Thread-safe. An in-memory index (an `LRUList`) answers "is it there" and "what goes
///   next" in O(1); opening the cache lists the directory once, O(n log n).
///   One process per directory is assumed.
public final class DiskCache: Sendable {
  /// Counters since this instance was opened, plus the current size.
  public struct Statistics: Sendable, Hashable {
    public var hits = 0
    public var misses = 0
    public var writes = 0
    public var evictions = 0
    public var corruptEntriesRemoved = 0
    public var totalSize = 0
    public var count = 0
  }

  private struct State {
    var index = LRUList<String, Int>()
    var statistics = Statistics()
  }

  /// A header that records the entry's key, body length and checksum, and HTTP metadata.
  private struct Header: Codable {
    var key: String
    var byteCount: Int
    var checksum: UInt64
    var metadata: HTTPCacheMetadata
  }

  private static let magic = Data("TSRDISK1".utf8)
  private static let fileExtension = "tsr"

  public let directory: URL
  public let sizeLimit: Int
  private let now: @Sendable () -> Date
  private let state = Locked(State())

  /// `$XDG_CACHE_HOME/tessera/images`, or `~/.cache/tessera/images`.
  public static var defaultDirectory: URL {
    let environment = ProcessInfo.processInfo.environment
    let base: URL
    if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
      base = URL(fileURLWithPath: xdg, isDirectory: true)
    } else {
      base = FileManager.default.homeDirectoryForCurrentUser
        .appendingPathComponent(".cache", isDirectory: true)
    }
    return base.appendingPathComponent("tessera", isDirectory: true)
      .appendingPathComponent("images", isDirectory: true)
  }

  /// Opens (creating if needed) the cache in `directory`, indexing the entries already there.
  /// - Parameters:
  ///   - sizeLimit: bytes on disk, headers included. Default 512 MiB.
  ///   - now: the clock used for freshness and recency (tests inject one).
  public init(
    directory: URL = DiskCache.defaultDirectory, sizeLimit: Int = 512 << 20,
    now: @escaping @Sendable () -> Date = { Date() }
  ) throws {
    self.directory = directory
    self.sizeLimit = max(0, sizeLimit)
    self.now = now
    let files = FileManager.default
    try files.createDirectory(at: directory, withIntermediateDirectories: true)
    let keys: [URLResourceKey] = [.fileSizeKey, .contentModificationDateKey]
    var found: [(name: String, size: Int, used: Date)] = []
    for url in try files.contentsOfDirectory(at: directory, includingPropertiesForKeys: keys) {
      let name = url.lastPathComponent
      if name.hasPrefix(".tmp-") {
        try? files.removeItem(at: url)  // left by a crash mid-write
        continue
      }
      guard url.pathExtension == Self.fileExtension else { continue }
      let values = try? url.resourceValues(forKeys: Set(keys))
      found.append(
        (name, values?.fileSize ?? 0, values?.contentModificationDate ?? .distantPast))
    }
    found.sort { ($0.used, $0.name) < ($1.used, $1.name) }
    state.withLock { state in
      for entry in found {
        state.index.set(entry.name, entry.size)
        state.statistics.totalSize += entry.size
      }
      state.statistics.count = state.index.count
      evictOverLimit(&state)
    }
  }

  public var statistics: Statistics { state.withLock { $0.statistics } }
  public var totalSize: Int { statistics.totalSize }

  /// Whether an entry for `key` is indexed (not verified; no I/O).
  public func contains(_ key: String) -> Bool {
    state.withLock { $0.index.peek(fileName(for: key)) != nil }
  }

  /// The verified entry for `key`, which becomes the most recently used; nil on a miss. A
  /// corrupt or truncated file is deleted and counted in `corruptEntriesRemoved`.
  public func entry(for key: String) -> DiskCacheEntry? {
    let name = fileName(for: key)
    guard state.withLock({ $0.index.peek(name) != nil }) else {
      state.withLock { $0.statistics.misses += 1 }
      return nil
    }
    let url = directory.appendingPathComponent(name)
    guard let file = try? Data(contentsOf: url) else {
      state.withLock { state in
        forget(name, in: &state)
        state.statistics.misses += 1
      }
      return nil
    }
    guard let entry = Self.decode(file) else {
      state.withLock { state in
        if state.index.peek(name) != nil {
          forget(name, in: &state)
          unlink(url.path)
          state.statistics.corruptEntriesRemoved += 1
        }
        state.statistics.misses += 1
      }
      return nil
    }
    guard entry.key == key else {
      state.withLock { $0.statistics.misses += 1 }  // a hash collision: the other key's file
      return nil
    }
    state.withLock { state in
      _ = state.index.touch(name)
      state.statistics.hits += 1
    }
    try? FileManager.default.setAttributes(
      [.modificationDate: now()], ofItemAtPath: url.path)
    return entry
  }

  /// Stores `data` for `key`, replacing any older entry, then evicts until the size limit
  /// holds. Returns false when the entry alone is over the limit or the write failed.
  @discardableResult
  public func store(_ data: Data, metadata: HTTPCacheMetadata, for key: String) -> Bool {
    let header = Header(
      key: key, byteCount: data.count, checksum: StableHash.checksum(data), metadata: metadata)
    guard let headerBytes = try? JSONEncoder().encode(header) else { return false }
    var file = Self.magic
    var length = UInt32(headerBytes.count).littleEndian
    withUnsafeBytes(of: &length) { file.append(contentsOf: $0) }
    file.append(headerBytes)
    file.append(data)
    guard file.count <= sizeLimit else { return false }
    let name = fileName(for: key)
    let temporary = directory.appendingPathComponent(".tmp-\(UUID().uuidString)")
    do {
      try file.write(to: temporary)
    } catch {
      return false
    }
    let finalPath = directory.appendingPathComponent(name).path
    return state.withLock { state in
      guard rename(temporary.path, finalPath) == 0 else {
        unlink(temporary.path)
        return false
      }
      if let old = state.index.set(name, file.count) { state.statistics.totalSize -= old }
      state.statistics.totalSize += file.count
      state.statistics.writes += 1
      evictOverLimit(&state)
      state.statistics.count = state.index.count
      return true
    }
  }

  public func removeEntry(for key: String) {
    let name = fileName(for: key)
    state.withLock { state in
      if state.index.peek(name) != nil {
        forget(name, in: &state)
        unlink(directory.appendingPathComponent(name).path)
      }
    }
  }

  public func removeAll() {
    state.withLock { state in
      for name in state.index.keysOldestFirst {
        unlink(directory.appendingPathComponent(name).path)
      }
      state.index.removeAll()
      state.statistics.totalSize = 0
      state.statistics.count = 0
    }
  }

  /// The file an entry for `key` lives in.
  public func fileURL(for key: String) -> URL {
    directory.appendingPathComponent(fileName(for: key))
  }

  /// The current time on this cache's clock.
  public var currentDate: Date { now() }

  private func fileName(for key: String) -> String {
    StableHash.fileName(for: key) + "." + Self.fileExtension
  }

  private func forget(_ name: String, in state: inout State) {
    if let size = state.index.remove(name) { state.statistics.totalSize -= size }
    state.statistics.count = state.index.count
  }

  private func evictOverLimit(_ state: inout State) {
    while state.statistics.totalSize > sizeLimit, let (name, size) = state.index.removeOldest() {
      state.statistics.totalSize -= size
      state.statistics.evictions += 1
      unlink(directory.appendingPathComponent(name).path)
    }
    state.statistics.count = state.index.count
  }

  /// Parses and verifies a file: magic, header, key, length and checksum. O(n).
  private static func decode(_ file: Data) -> DiskCacheEntry? {
    let prefix = magic.count + 4
    guard file.count >= prefix, file.prefix(magic.count) == magic else { return nil }
    var length: UInt32 = 0
    withUnsafeMutableBytes(of: &length) { raw in
      raw.copyBytes(from: file[file.startIndex + magic.count..<file.startIndex + prefix])
    }
    let headerEnd = prefix + Int(UInt32(littleEndian: length))
    guard headerEnd <= file.count,
      let header = try? JSONDecoder().decode(
        Header.self, from: file[file.startIndex + prefix..<file.startIndex + headerEnd])
    else { return nil }
    let body = file.subdata(in: file.startIndex + headerEnd..<file.endIndex)
    guard body.count == header.byteCount, StableHash.checksum(body) == header.checksum else {
      return nil
    }
    return DiskCacheEntry(key: header.key, data: body, metadata: header.metadata)
  }
}
