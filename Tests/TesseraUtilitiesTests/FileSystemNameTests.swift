import Foundation
import Testing

@testable import TesseraUtilities

/// File names are bytes: every byte sequence comes back from its string as it was, a name
/// that is valid UTF-8 is its plain string, and a system call reaches the file by its bytes.
@Suite(.timeLimit(.minutes(1))) struct FileSystemNameTests {
  @Test(arguments: [
    Array("plain.jpg".utf8), Array("日本語 🌅.jpg".utf8), [0x63, 0x61, 0x66, 0xE9],  // Latin-1 é
    [0xFF, 0xFE, 0x00, 0x41], [0xC0, 0x80], [0xED, 0xA0, 0x80],  // overlong NUL, a surrogate
    [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82], [0x80],  // past U+10FFFF, cut, stray continuation
    Array("\u{10FF80}\u{10FFFF}".utf8),  // the escape scalars themselves, spelt in UTF-8
  ])
  func everyByteSequenceComesBack(bytes: [UInt8]) {
    let string = FileSystemName.string(bytes)
    #expect(FileSystemName.bytes(of: string) == bytes, "\(bytes)")
  }

  @Test func randomBytesComeBack() {
    var generator = SplitMix64(seed: 11)
    for _ in 0..<2_000 {
      let count = Int.random(in: 0...24, using: &generator)
      let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
      let string = FileSystemName.string(bytes)
      #expect(FileSystemName.bytes(of: string) == bytes, "\(bytes)")
    }
  }

  @Test func validUTF8IsItsOwnStringAndShowsAsItIs() {
    #expect(FileSystemName.string(Array("été.jpg".utf8)) == "été.jpg")
    #expect(FileSystemName.displayed("été.jpg") == "été.jpg")
    let latin1 = FileSystemName.string([0x63, 0x61, 0x66, 0xE9, 0x2E, 0x6A, 0x70, 0x67])
    #expect(latin1 != "caf\u{FFFD}.jpg")
    #expect(FileSystemName.displayed(latin1) == "caf\u{FFFD}.jpg")
  }

  /// A file whose name is not UTF-8 is reached by its bytes: created here with `open` on
  /// the raw bytes, then read through the escaped string.
  @Test func aSystemCallReachesTheFileByItsBytes() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tessera-names-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let raw = Array(folder.path.utf8) + Array("/caf".utf8) + [0xE9] + Array(".jpg".utf8)
    let descriptor = (raw.map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer {
      open($0.baseAddress!, O_WRONLY | O_CREAT | O_EXCL, 0o600)
    }
    try #require(descriptor >= 0, "errno \(errno)")
    _ = [UInt8](repeating: 7, count: 10).withUnsafeBytes { write(descriptor, $0.baseAddress, 10) }
    close(descriptor)
    let path = FileSystemName.string(raw)
    var info = stat()
    #expect(FileSystemName.withCString(path) { stat($0, &info) } == 0)
    #expect(info.st_size == 10)
    // The repaired string names no file.
    #expect(stat(FileSystemName.displayed(path), &info) != 0)
  }
}
