import Foundation
import TesseraTestSupport
import TesseraUtilities
import Testing

@testable import TesseraImages

#if canImport(Glibc)
  import Glibc
#endif

/// Two processes on one cache folder, played by two `DiskCache` instances: each opens the lock
/// file itself, so their `flock`s exclude each other exactly as two processes' do, and neither
/// knows the other's writes except through the folder.
@Suite(.timeLimit(.minutes(1))) struct DiskCacheSharingTests {
  private let clock = TestClock()
  private let owned = TemporaryFolder.Owned()
  private var directory: URL { owned.url }

  private func open(limit: Int = 1 << 20) throws -> DiskCache {
    let clock = self.clock
    return try DiskCache(directory: directory, sizeLimit: limit, now: { clock.now })
  }

  private func metadata() -> HTTPCacheMetadata {
    HTTPCacheMetadata(storedAt: clock.now, freshUntil: clock.now.addingTimeInterval(3600))
  }

  private func files(_ include: (String) -> Bool) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: directory.path).filter(include).sorted()
  }

  /// Bytes of entry files in the folder, as `ls` would count them.
  private func bytesOnDisk() throws -> Int {
    try files { $0.hasSuffix(".tsr") }.reduce(0) { total, name in
      let path = directory.appendingPathComponent(name).path
      let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int
      return total + (size ?? 0)
    }
  }

  @Test func theSizeLimitHoldsForWhatBothStoreTogether() throws {
    let first = try open(limit: 10_000)
    let second = try open(limit: 10_000)
    let body = Data(repeating: 7, count: 2_000)
    for index in 0..<6 {
      #expect(first.store(body, metadata: metadata(), for: "first-\(index)"))
      #expect(second.store(body, metadata: metadata(), for: "second-\(index)"))
      clock.advance(1)
      #expect(try bytesOnDisk() <= 10_000)
    }
    // The least recently used went first, whoever wrote them; the latest of each stayed.
    #expect(first.entry(for: "first-0") == nil)
    #expect(second.entry(for: "second-0") == nil)
    #expect(first.entry(for: "first-5") != nil)
    #expect(first.entry(for: "second-5") != nil)
    #expect(second.totalSize == (try bytesOnDisk()))
  }

  @Test func oneReadsWhatTheOtherWrote() throws {
    let writer = try open()
    let reader = try open()
    writer.store(Data([1, 2, 3]), metadata: metadata(), for: "shared")
    #expect(reader.entry(for: "shared")?.data == Data([1, 2, 3]))
    #expect(reader.contains("shared"))
  }

  /// Both stores at once from several threads each: the folder's ledger, kept under the lock,
  /// must equal what is on disk afterwards (a lost update would leave it off).
  @Test func concurrentWritersKeepTheLedgerExact() throws {
    let caches = [try open(limit: 40_000), try open(limit: 40_000)]
    let body = Data(repeating: 3, count: 1_500)
    DispatchQueue.concurrentPerform(iterations: 8) { worker in
      let cache = caches[worker % 2]
      for index in 0..<25 {
        cache.store(body, metadata: metadata(), for: "w\(worker)-\(index % 10)")
      }
    }
    let onDisk = try bytesOnDisk()
    #expect(onDisk <= 40_000)
    let ledger = try String(
      contentsOf: directory.appendingPathComponent(".lock"), encoding: .utf8)
    #expect(ledger == "\(onDisk)\n")
    #expect(try files { $0.hasPrefix(".tmp-") }.isEmpty)
  }

  @Test func aFreshTemporaryFileOfAnotherProcessSurvivesAndAStaleOneGoes() throws {
    _ = try open()
    let live = directory.appendingPathComponent(".tmp-99999-1")  // another process, writing
    let dead = directory.appendingPathComponent(".tmp-99998-7")  // a writer that crashed
    try Data([1]).write(to: live)
    try Data([2]).write(to: dead)
    let twentyMinutesAgo = Date().addingTimeInterval(-20 * 60)
    try FileManager.default.setAttributes(
      [.modificationDate: twentyMinutesAgo], ofItemAtPath: dead.path)
    let other = try open()  // opening sweeps the folder
    #expect(try files { $0.hasPrefix(".tmp-") } == [".tmp-99999-1"])
    // A scan under the limit's lock sweeps the same way.
    try FileManager.default.setAttributes(
      [.modificationDate: twentyMinutesAgo], ofItemAtPath: live.path)
    other.removeAll()
    #expect(try files { $0.hasPrefix(".tmp-") }.isEmpty)
  }

  @Test func aWriteThatFailsHalfwayRemovesItsTemporaryFile() throws {
    let clock = self.clock
    let calls = Locked(0)
    let cache = try DiskCache(
      directory: directory, sizeLimit: 1 << 20, now: { clock.now },
      writeBytes: { descriptor, bytes in
        // Half the bytes reach the disk, then it is full.
        let call = calls.withLock { calls in
          calls += 1
          return calls
        }
        guard call == 1 else {
          errno = ENOSPC
          return -1
        }
        return write(descriptor, bytes.baseAddress, bytes.count / 2)
      })
    #expect(!cache.store(Data(repeating: 9, count: 5_000), metadata: metadata(), for: "k"))
    #expect(try files { $0.hasPrefix(".tmp-") }.isEmpty)
    #expect(!cache.contains("k"))
  }

  @Test func aRenameThatFailsRemovesItsTemporaryFile() throws {
    let cache = try open()
    // A directory where the entry should go: rename(2) cannot replace it.
    try FileManager.default.createDirectory(
      at: cache.fileURL(for: "k"), withIntermediateDirectories: false)
    #expect(!cache.store(Data([1, 2]), metadata: metadata(), for: "k"))
    #expect(try files { $0.hasPrefix(".tmp-") }.isEmpty)
    #expect(cache.entry(for: "k") == nil)
  }

  @Test func aLedgerThatDoesNotParseIsRebuiltFromTheFolder() throws {
    let cache = try open()
    cache.store(Data(repeating: 1, count: 500), metadata: metadata(), for: "a")
    try Data("-12x\n".utf8).write(to: directory.appendingPathComponent(".lock"))
    cache.store(Data(repeating: 2, count: 500), metadata: metadata(), for: "b")
    #expect(cache.totalSize == (try bytesOnDisk()))
  }

  @Test func anEntryThatIsALinkIsNotFollowed() throws {
    let cache = try open()
    let target = directory.appendingPathComponent("outside.txt")
    try Data("secret".utf8).write(to: target)
    try FileManager.default.createSymbolicLink(
      at: cache.fileURL(for: "k"), withDestinationURL: target)
    #expect(cache.entry(for: "k") == nil)
    #expect(FileManager.default.fileExists(atPath: target.path))
  }
}
