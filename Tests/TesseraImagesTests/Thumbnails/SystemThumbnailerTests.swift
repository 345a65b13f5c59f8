import Foundation
import TesseraTestSupport
import Testing

@testable import TesseraImages

/// The desktop's thumbnailer entries, read as file managers read them, and a real one run.
@Suite(.timeLimit(.minutes(1)))
struct SystemThumbnailerTests {
  static let entry = """
    [Thumbnailer Entry]
    TryExec=sh
    Exec=sh -c 'x' %i %u %o %s
    MimeType=video/mp4;video/webm;
    """

  /// A file's own name is a value, never codes: `%s`, `%u`, `%i`, `%o` and `%%` inside the
  /// path reach the thumbnailer as they are, whatever order the entry names its codes in.
  @Test(arguments: ["clip%s.mp4", "x%u.mp4", "%i%o.mov", "100%%.mkv", "end%"])
  func codesInTheFilesNameAreNotFilledIn(name: String) throws {
    let entry = Self.entry.replacingOccurrences(of: "\nExec=", with: "\nExec=tool %s %o %u %i #")
    let found = try #require(SystemThumbnailer.parse(entry, for: "video/mp4"))
    let path = "/videos/" + name
    let words = found.arguments(path: path, output: "/t/o.png", size: 256)
    #expect(
      Array(words.prefix(5)) == [
        "tool", "256", "/t/o.png",
        URL(fileURLWithPath: path)
          .absoluteString, path,
      ])
  }

  @Test func codesAreFilledInsideAWordAndPercentIsEscaped() throws {
    let entry = Self.entry.replacingOccurrences(
      of: "\nExec=", with: "\nExec=tool --size=%sx%s --out=%o 100%% %q # ")
    let found = try #require(SystemThumbnailer.parse(entry, for: "video/mp4"))
    #expect(
      Array(found.arguments(path: "/a.mp4", output: "/o.png", size: 64).prefix(5))
        == ["tool", "--size=64x64", "--out=/o.png", "100%", "%q"])
  }

  /// Codes are read scalar by scalar: a code followed by a combining mark is still the code
  /// (read by characters, `%i` and the mark made one "í" and the path was never put in).
  @Test func aCodeBeforeACombiningMarkIsStillACode() {
    let values: [Unicode.Scalar: String] = ["i": "/a%s.mp4", "s": "64"]
    #expect(ThumbnailerExecCodes.fill("%i\u{301}", with: values) == "/a%s.mp4\u{301}")
    #expect(ThumbnailerExecCodes.fill("%s%\u{301}s", with: values) == "64%\u{301}s")
    #expect(ThumbnailerExecCodes.fill("100%", with: values) == "100%")
    #expect(ThumbnailerExecCodes.fill("%%s", with: values) == "%s")
  }

  @Test func anEntryIsTakenForItsTypesAndItsArgumentsFilledIn() throws {
    let found = try #require(SystemThumbnailer.parse(Self.entry, for: "video/mp4"))
    #expect(
      found.arguments(path: "/v/a b.mp4", output: "/t/o.png", size: 512)
        == ["sh", "-c", "'x'", "/v/a b.mp4", "file:///v/a%20b.mp4", "/t/o.png", "512"])
    #expect(SystemThumbnailer.parse(Self.entry, for: "video/quicktime") == nil)
    // A program that is not installed: the entry does not apply (TryExec).
    let missing = Self.entry.replacingOccurrences(of: "TryExec=sh", with: "TryExec=no-such-tool")
    #expect(SystemThumbnailer.parse(missing, for: "video/mp4") == nil)
    // Another group's keys are not the entry's.
    #expect(
      SystemThumbnailer.parse("[Other]\nExec=sh\nMimeType=video/mp4;", for: "video/mp4") == nil)
  }

  /// Debian's ffmpegthumbnailer, found through its entry, makes a poster of a real video.
  @Test func ffmpegthumbnailerMakesAPosterOfARealVideo() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tessera-video-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let video = folder.appendingPathComponent("clip.mp4").path
    try TestMedia.video(video)
    let thumbnailer = try #require(SystemThumbnailer.find(for: "video/mp4"))
    let posterFolders = {
      Set(
        try FileManager.default.contentsOfDirectory(
          atPath: FileManager.default.temporaryDirectory.path
        ).filter { $0.hasPrefix("tessera-poster-") })
    }
    let before = try posterFolders()
    let png = try #require(thumbnailer.thumbnail(ofFileAt: video, size: 256))
    #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
    // Its temporary folder is gone (others' may come and go meanwhile).
    #expect(try posterFolders().subtracting(before).isEmpty)
  }

  /// A gallery that quit while a poster was being made left its folder: old ones are swept,
  /// a fresh one (a thumbnailer may still be writing it) and other names are kept.
  @Test func leftPosterFoldersAreSweptWhenOld() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tessera-sweep-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    for name in ["tessera-poster-old", "tessera-poster-new", "other-old"] {
      try FileManager.default.createDirectory(
        at: folder.appendingPathComponent(name), withIntermediateDirectories: true)
    }
    let hourAgo = Date() - 3_600
    for name in ["tessera-poster-old", "other-old"] {
      try FileManager.default.setAttributes(
        [.modificationDate: hourAgo], ofItemAtPath: folder.appendingPathComponent(name).path)
    }
    SystemThumbnailer.sweepStaleFolders(in: folder, before: Date() - 600)
    #expect(
      Set(try FileManager.default.contentsOfDirectory(atPath: folder.path))
        == ["tessera-poster-new", "other-old"])
  }
}
