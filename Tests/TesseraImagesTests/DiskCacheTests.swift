import Foundation
import TesseraTestSupport
import TesseraUtilities
import Testing

@testable import TesseraImages

@Suite(.timeLimit(.minutes(1))) struct DiskCacheTests {
  private let clock = TestClock()
  private let owned = TemporaryFolder.Owned()
  private var directory: URL { owned.url }

  private func open(limit: Int = 1 << 20) throws -> DiskCache {
    let clock = self.clock
    return try DiskCache(directory: directory, sizeLimit: limit, now: { clock.now })
  }

  private func entryFiles() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: directory.path).filter {
      $0.hasSuffix(".tsr")
    }
  }

  private func temporaryFiles() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: directory.path).filter {
      $0.hasPrefix(".tmp-")
    }
  }

  private func metadata(maxAge: TimeInterval = 3600) -> HTTPCacheMetadata {
    HTTPCacheMetadata(storedAt: clock.now, freshUntil: clock.now.addingTimeInterval(maxAge))
  }

  @Test func storesAndReadsBackWithMetadata() throws {
    let cache = try open()
    let data = Data((0..<1000).map { UInt8($0 % 251) })
    #expect(cache.store(data, metadata: metadata(), for: "https://x/a"))
    let entry = try #require(cache.entry(for: "https://x/a"))
    #expect(entry.data == data)
    #expect(entry.key == "https://x/a")
    #expect(entry.metadata == metadata())
    #expect(cache.entry(for: "https://x/b") == nil)
    #expect(cache.statistics.hits == 1 && cache.statistics.misses == 1)
  }

  @Test func sizeLimitHoldsAfterEveryWriteEvictingLeastRecentlyUsed() throws {
    let cache = try open(limit: 10_000)
    let body = Data(repeating: 1, count: 2_000)
    for index in 0..<4 {
      cache.store(body, metadata: metadata(), for: "k\(index)")
      clock.advance(1)
    }
    _ = cache.entry(for: "k0")  // k0 becomes the most recent
    for index in 4..<7 {
      cache.store(body, metadata: metadata(), for: "k\(index)")
      #expect(cache.totalSize <= 10_000)
      clock.advance(1)
    }
    #expect(cache.contains("k0"))
    #expect(!cache.contains("k1"))
    #expect(cache.contains("k6"))
    #expect(try entryFiles().count == cache.statistics.count)
    #expect(cache.statistics.evictions > 0)
  }

  @Test func anEntryLargerThanTheLimitIsNotStored() throws {
    let cache = try open(limit: 1_000)
    #expect(!cache.store(Data(repeating: 0, count: 2_000), metadata: metadata(), for: "big"))
    #expect(cache.totalSize == 0)
  }

  @Test func survivesARestartKeepingRecency() throws {
    do {
      let cache = try open(limit: 10_000)
      cache.store(Data(repeating: 1, count: 2_000), metadata: metadata(), for: "old")
      clock.advance(10)
      cache.store(Data(repeating: 2, count: 2_000), metadata: metadata(), for: "new")
      clock.advance(10)
      _ = cache.entry(for: "old")  // read last: most recent, on disk as its mtime
    }
    let reopened = try open(limit: 10_000)
    #expect(reopened.statistics.count == 2)
    #expect(reopened.entry(for: "new")?.data == Data(repeating: 2, count: 2_000))
    clock.advance(10)
    _ = reopened.entry(for: "old")
    clock.advance(10)
    // Three more force evictions: "new" was read before "old", so it goes first.
    for index in 0..<3 {
      reopened.store(Data(repeating: 3, count: 2_000), metadata: metadata(), for: "more\(index)")
    }
    #expect(!reopened.contains("new"))
    #expect(reopened.contains("old"))
  }

  @Test func corruptEntryIsDetectedAndDeleted() throws {
    let cache = try open()
    cache.store(Data(repeating: 5, count: 4_000), metadata: metadata(), for: "k")
    let url = cache.fileURL(for: "k")
    var bytes = try Data(contentsOf: url)
    bytes[bytes.count - 100] ^= 0xFF
    try bytes.write(to: url)
    #expect(cache.entry(for: "k") == nil)
    #expect(!FileManager.default.fileExists(atPath: url.path))
    #expect(cache.statistics.corruptEntriesRemoved == 1)
    #expect(cache.totalSize == 0)
  }

  @Test func truncatedEntryIsDetectedAndDeleted() throws {
    let cache = try open()
    cache.store(Data(repeating: 5, count: 4_000), metadata: metadata(), for: "k")
    let url = cache.fileURL(for: "k")
    try Data(try Data(contentsOf: url).prefix(1_000)).write(to: url)
    #expect(cache.entry(for: "k") == nil)
    #expect(cache.statistics.corruptEntriesRemoved == 1)
    try Data("garbage".utf8).write(to: url)  // and a file that is not an entry at all
    cache.store(Data([1]), metadata: metadata(), for: "k")
    try Data("garbage".utf8).write(to: url)
    #expect(cache.entry(for: "k") == nil)
  }

  @Test func keyIsVerifiedOnRead() throws {
    let cache = try open()
    cache.store(Data([1, 2, 3]), metadata: metadata(), for: "a")
    cache.store(Data([4, 5, 6]), metadata: metadata(), for: "b")
    // Simulate a hash collision: b's file now holds a's entry.
    try FileManager.default.removeItem(at: cache.fileURL(for: "b"))
    try FileManager.default.copyItem(at: cache.fileURL(for: "a"), to: cache.fileURL(for: "b"))
    #expect(cache.entry(for: "b") == nil)
    #expect(cache.entry(for: "a")?.data == Data([1, 2, 3]))
  }

  @Test func writesLeaveNoTemporaryFiles() throws {
    let cache = try open()
    cache.store(Data([1]), metadata: metadata(), for: "a")
    cache.store(Data([2]), metadata: metadata(), for: "b")
    #expect(try temporaryFiles().isEmpty)
    #expect(try entryFiles().count == 2)
    #expect(cache.entry(for: "a")?.data == Data([1]))
  }

  @Test func defaultDirectoryFollowsXDG() {
    let path = DiskCache.defaultDirectory.path
    if let xdg = ProcessInfo.processInfo.environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
      #expect(path.hasPrefix(xdg))
    } else {
      #expect(path.hasSuffix(".cache/tessera/images"))
    }
  }
}

@Suite(.timeLimit(.minutes(1))) struct HTTPCacheMetadataTests {
  let now = Date(timeIntervalSince1970: 1_700_000_000)

  private func metadata(_ headers: [String: String]) -> HTTPCacheMetadata? {
    HTTPCacheMetadata.from(DataResponse(headers: headers), at: now, defaultLifetime: 100)
  }

  @Test func noStoreIsNotStored() {
    #expect(metadata(["Cache-Control": "public, no-store"]) == nil)
  }

  @Test func maxAgeMinusAgeSetsFreshness() {
    let entry = metadata(["Cache-Control": "max-age=600", "Age": "100"])
    #expect(entry?.freshUntil == now.addingTimeInterval(500))
  }

  @Test func noCacheIsStaleAtOnce() {
    let entry = metadata(["Cache-Control": "no-cache", "ETag": "\"v1\""])
    #expect(entry?.isFresh(at: now) == false)
    #expect(entry?.canRevalidate == true)
  }

  @Test func expiresIsUsedWithoutMaxAge() {
    let entry = metadata([
      "Date": HTTPDate.format(now), "Expires": HTTPDate.format(now.addingTimeInterval(60)),
    ])
    #expect(entry?.freshUntil == now.addingTimeInterval(60))
  }

  @Test func lastModifiedGivesATenthOfItsAgeAtMostAnHour() {
    let recent = metadata(["Last-Modified": HTTPDate.format(now.addingTimeInterval(-1000))])
    #expect(recent?.freshUntil == now.addingTimeInterval(100))
    let ancient = metadata(["Last-Modified": HTTPDate.format(now.addingTimeInterval(-1e8))])
    #expect(ancient?.freshUntil == now.addingTimeInterval(3_600))
  }

  @Test func noInformationUsesTheDefaultLifetime() {
    #expect(metadata([:])?.freshUntil == now.addingTimeInterval(100))
  }
}
