import Foundation
import Testing

@testable import TesseraUtilities

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The ranged read: a second look into a file at an offset its first bytes named, with the same
/// checks as the prefix read, and offsets and counts from the file clamped before arithmetic.
@Suite struct SafeFileReadRangeTests {
  /// A file of `count` bytes, byte i = i mod 251, in a fresh folder; removed by `body`'s end.
  private func withFile(count: Int, _ body: (URL, [UInt8]) throws -> Void) throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("tessera-range-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let bytes = (0..<count).map { UInt8($0 % 251) }
    let file = folder.appendingPathComponent("photo.heic")
    try Data(bytes).write(to: file)
    try body(file, bytes)
  }

  private func read(_ file: URL, offset: Int, count: Int, max: Int = 1 << 20) -> [UInt8]? {
    guard
      case .success(let contents) = SafeFileRead.contents(
        path: file.path, maxFileSize: max, offset: offset, count: count)
    else { return nil }
    return [UInt8](contents.bytes)
  }

  @Test func readsTheRangeAndStopsAtTheEnd() throws {
    try withFile(count: 300_000) { file, bytes in
      #expect(read(file, offset: 200_000, count: 50) == Array(bytes[200_000..<200_050]))
      #expect(read(file, offset: 299_990, count: 50) == Array(bytes[299_990...]))
      #expect(read(file, offset: 300_000, count: 50) == [])
      #expect(read(file, offset: 0, count: 0) == [])
      let contents = try #require(
        try? SafeFileRead.contents(path: file.path, maxFileSize: 1 << 20, offset: 7, count: 3)
          .get())
      #expect(contents.size == 300_000)
    }
  }

  @Test func forgedOffsetsAndCountsAreClampedNotTrusted() throws {
    try withFile(count: 1_000) { file, bytes in
      #expect(read(file, offset: -5, count: 4) == Array(bytes[0..<4]))
      #expect(read(file, offset: .max, count: .max) == [])
      #expect(read(file, offset: 990, count: .max) == Array(bytes[990...]))
      #expect(read(file, offset: .min, count: -1) == [])
    }
  }

  @Test func refusesWhatThePrefixReadRefuses() throws {
    try withFile(count: 1_000) { file, _ in
      let link = file.deletingLastPathComponent().appendingPathComponent("link.heic")
      try FileManager.default.createSymbolicLink(at: link, withDestinationURL: file)
      let viaLink = SafeFileRead.contents(
        path: link.path, maxFileSize: 1 << 20, offset: 0, count: 4)
      #expect(throws: SafeFileRead.Refusal.symbolicLink) { try viaLink.get() }
      let small = SafeFileRead.contents(path: file.path, maxFileSize: 999, offset: 0, count: 4)
      #expect(throws: SafeFileRead.Refusal.tooLarge(size: 1_000, limit: 999)) { try small.get() }
      let fifo = file.deletingLastPathComponent().appendingPathComponent("fifo.heic")
      try #require(mkfifo(fifo.path, 0o600) == 0)
      // O_NONBLOCK: opening a FIFO with no writer returns at once, and fstat refuses it.
      let fromFIFO = SafeFileRead.contents(
        path: fifo.path, maxFileSize: 1 << 20, offset: 0, count: 4)
      #expect(throws: SafeFileRead.Refusal.notRegularFile(kind: "a FIFO")) { try fromFIFO.get() }
      let folder = file.deletingLastPathComponent().path
      let fromFolder = SafeFileRead.contents(
        path: folder, maxFileSize: 1 << 20, offset: 0, count: 4)
      #expect(throws: SafeFileRead.Refusal.notRegularFile(kind: "a folder")) {
        try fromFolder.get()
      }
    }
  }
}
