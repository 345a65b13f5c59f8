import Foundation
import TesseraUtilities
import Testing

@testable import TesseraPhotoLibrary

@Suite(.timeLimit(.minutes(1))) struct TrashInfoTests {
  static let valid = "[Trash Info]\nPath=/p/a%20b.jpg\nDeletionDate=2024-02-29T23:59:60\n"

  /// Writes `text` as an info file in `sandbox` and reads it back.
  static func read(_ bytes: Data, in sandbox: TrashSandbox) throws(TrashError) -> TrashInfo {
    let path = sandbox.root + "/x.trashinfo"
    try? bytes.write(to: URL(fileURLWithPath: path))
    return try TrashInfo.read(path)
  }

  @Test func aValidEntryIsRead() throws {
    try TrashSandbox.with { sandbox in
      let info = try Self.read(Data(Self.valid.utf8), in: sandbox)
      #expect(info == TrashInfo(path: "/p/a b.jpg", deletionDate: "2024-02-29T23:59:60"))
      #expect(info.contents == Self.valid)
    }
  }

  @Test func whatTheSpecificationSaysToIgnoreIsIgnored() throws {
    let lines = [
      "[Trash Info]",
      "# a comment",
      "Other=1",
      "Path = rel%2Fative/%e2%82%ac+1.jpg\r",  // spaces around "=", CRLF, lower-case hex
      "Path=/second/one/is/ignored",
      "DeletionDate=20040831T22:32:08",  // the specification's own example's form
      "[Another Group]",
      "Path=/not/this/group",
    ]
    let info = try TrashInfo.parse(Data(lines.joined(separator: "\n").utf8))
    #expect(info.path == "rel/ative/€+1.jpg")
    #expect(info.deletionDate == "20040831T22:32:08")
    let utc = TimeZone(secondsFromGMT: 0)!
    #expect(info.deletionDate(in: utc) == Date(timeIntervalSince1970: 1_093_991_528))
  }

  @Test(
    arguments: [
      ("", "its first line is not [Trash Info]"),
      ("Path=/a\nDeletionDate=2024-01-01T00:00:00\n", "its first line is not [Trash Info]"),
      ("[Trash Info]\nDeletionDate=2024-01-01T00:00:00\n", "it has no Path"),
      ("[Trash Info]\nPath=/a\n", "it has no DeletionDate"),
      ("[Trash Info]\n[Other]\nPath=/a\nDeletionDate=2024-01-01T00:00:00\n", "it has no Path"),
      ("[Trash Info]\nPath=/a%2\nDeletionDate=2024-01-01T00:00:00\n", "not a percent-encoded"),
      ("[Trash Info]\nPath=/a%zz\nDeletionDate=2024-01-01T00:00:00\n", "not a percent-encoded"),
      ("[Trash Info]\nPath=/a%00b\nDeletionDate=2024-01-01T00:00:00\n", "holds a NUL"),
      ("[Trash Info]\nPath=\nDeletionDate=2024-01-01T00:00:00\n", "its Path is empty"),
      ("[Trash Info]\nPath=/a/../../etc\nDeletionDate=2024-01-01T00:00:00\n", "a .. folder"),
      ("[Trash Info]\nPath=/a\nDeletionDate=yesterday\n", "its DeletionDate"),
      ("[Trash Info]\nPath=/a\nDeletionDate=2023-02-29T00:00:00\n", "its DeletionDate"),
      ("[Trash Info]\nPath=/a\nDeletionDate=2024-13-01T00:00:00\n", "its DeletionDate"),
      ("[Trash Info]\nPath=/a\nDeletionDate=2024-01-01T24:00:00\n", "its DeletionDate"),
      ("[Trash Info]\nPath=/a\nDeletionDate=2024-01-01 00:00:00\n", "its DeletionDate"),
      ("[Trash Info]\nPath=/a\nDeletionDate=+024-01-01T00:00:00\n", "its DeletionDate"),
    ])
  func aCorruptEntryIsRefusedWithItsReason(text: String, reason: String) {
    TrashSandbox.with { sandbox in
      let error = #expect(throws: TrashError.self) {
        try Self.read(Data(text.utf8), in: sandbox)
      }
      guard case .invalidInfo(let path, let said) = error else {
        Issue.record("expected invalidInfo, got \(String(describing: error))")
        return
      }
      #expect(path == sandbox.root + "/x.trashinfo")
      #expect(said.contains(reason), "\(said)")
      #expect(error?.description.hasPrefix("cannot read the trash entry ") == true)
    }
  }

  @Test func anOversizedOrOddFileIsRefusedUnread() throws {
    try TrashSandbox.with { sandbox in
      // Valid at the start, then a long comment: over the cap, refused by size alone.
      let oversized = Data(Self.valid.utf8) + Data(repeating: UInt8(ascii: "#"), count: 64 << 10)
      let tooLarge = #expect(throws: TrashError.self) { try Self.read(oversized, in: sandbox) }
      #expect(tooLarge?.description.contains("bytes long") == true)
      // Random bytes: refused, not a crash.
      var generator = SystemRandomNumberGenerator()
      for _ in 0..<50 {
        let noise = Data(
          (0..<Int.random(in: 0..<300)).map { _ in UInt8.random(in: 0...255, using: &generator) })
        _ = try? Self.read(Data("[Trash Info]\n".utf8) + noise, in: sandbox)
      }
      // A symbolic link, a folder, nothing.
      let link = sandbox.root + "/link.trashinfo"
      try Data(Self.valid.utf8).write(to: URL(fileURLWithPath: sandbox.root + "/target"))
      try FileManager.default.createSymbolicLink(
        atPath: link, withDestinationPath: sandbox.root + "/target")
      #expect(throws: TrashError.invalidInfo(path: link, reason: "it is a symbolic link")) {
        try TrashInfo.read(link)
      }
      #expect(throws: TrashError.self) { try TrashInfo.read(sandbox.root) }
      let missing = sandbox.root + "/missing.trashinfo"
      #expect(throws: TrashError.invalidInfo(path: missing, reason: "it does not exist")) {
        try TrashInfo.read(missing)
      }
    }
  }

  @Test func percentEncodingRoundTripsEveryCharacter() throws {
    var scalars = ""
    scalars.unicodeScalars.append(contentsOf: (1..<UInt32(0x250)).compactMap(Unicode.Scalar.init))
    scalars += "日本語 🌅 \u{FEFF}"
    let encoded = TrashInfo.percentEncoded("/" + scalars)
    // Only the unreserved ASCII and "/" stay; the rest is %XX.
    #expect(
      encoded.allSatisfy {
        $0.isASCII && ($0.isLetter || $0.isNumber || "-._~/%".contains($0))
      })
    #expect(TrashInfo.percentDecoded(Array(encoded.utf8)) == "/" + scalars)
    #expect(TrashInfo.percentEncoded("/a b/100%") == "/a%20b/100%25")
    // Not form decoding: a "+" stays a "+".
    #expect(TrashInfo.percentDecoded(Array("a+b%2B".utf8)) == "a+b+")
  }

  /// A name that is not UTF-8 (Latin-1 "é" is the byte E9) is written as its bytes, as GLib
  /// writes it, and read back as the same bytes.
  @Test func aNameThatIsNotUTF8KeepsItsBytes() throws {
    let path = FileSystemName.string(Array("/photos/caf".utf8) + [0xE9] + Array(".jpg".utf8))
    #expect(TrashInfo.percentEncoded(path) == "/photos/caf%E9.jpg")
    let decoded = try #require(TrashInfo.percentDecoded(Array("/photos/caf%E9.jpg".utf8)))
    #expect(decoded == path)
    #expect(FileSystemName.bytes(of: decoded).suffix(5) == [0xE9, 0x2E, 0x6A, 0x70, 0x67])
  }

  @Test func deletionDatesAreLocalWallClockTime() {
    let moment = Date(timeIntervalSince1970: 1_700_000_000)
    #expect(
      TrashInfo.deletionDate(moment, in: TimeZone(secondsFromGMT: 0)!) == "2023-11-14T22:13:20")
    #expect(
      TrashInfo.deletionDate(moment, in: TimeZone(secondsFromGMT: -8 * 3600)!)
        == "2023-11-14T14:13:20")
    #expect(
      TrashInfo.deletionDate(Date(timeIntervalSince1970: 0), in: TimeZone(secondsFromGMT: 0)!)
        == "1970-01-01T00:00:00")
  }
}
