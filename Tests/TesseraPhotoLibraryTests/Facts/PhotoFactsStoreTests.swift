import Foundation
import TesseraTestSupport
import TesseraUtilities
import Testing

@testable import TesseraPhotoFormats
@testable import TesseraPhotoLibrary

@Suite(.timeLimit(.minutes(1))) struct PhotoFactsStoreTests {
  static let modified = Date(timeIntervalSince1970: 1_700_000_000.123_456_7)

  static func entry(
    _ name: String, size: Int = 3_500_000, header: PhotoHeader
  ) -> PhotoFactsStore.Entry {
    PhotoFactsStore.Entry(name: name, size: size, modified: modified, header: header)
  }

  static let camera = PhotoHeader(
    pixelSize: PixelSize(width: 3000, height: 4000),
    exif: ExifFacts(
      taken: WallClockTime(exif: "2024:07:01 09:30:15"), model: "Pixel 8", orientation: 6,
      rating: 3))

  @Test func factsComeBackForFilesThatDidNotChange() async throws {
    try await TemporaryFolder.with { directory in
      let store = PhotoFactsStore(directory: directory.appendingPathComponent("facts"))
      // Names a line format could confuse: a tab, a newline, a percent sign, non-ASCII.
      let names = ["IMG_0001.JPG", "tab\there.jpg", "two\nlines.jpg", "100%.jpg", "été 🌅.heic"]
      let plain = PhotoHeader(pixelSize: PixelSize(width: 640, height: 480))
      // A motion photo: its appended video's place comes back too.
      let moving = PhotoHeader(
        pixelSize: PixelSize(width: 640, height: 480), appendedMotion: 2_000_000..<3_500_000)
      try store.store(
        names.map { Self.entry($0, header: $0.hasPrefix("IMG") ? Self.camera : plain) }
          + [
            Self.entry("no-exif.png", header: PhotoHeader()),
            Self.entry("PXL_1.MP.jpg", header: moving),
          ],
        ofFolder: "/home/me/Pictures/2024")
      let facts = store.facts(ofFolder: "/home/me/Pictures/2024")
      #expect(facts.count == 7)
      for name in names {
        let file = WalkedFile(
          path: "/home/me/Pictures/2024/\(name)", size: 3_500_000, modified: Self.modified)
        #expect(facts.header(of: file) == (name.hasPrefix("IMG") ? Self.camera : plain))
      }
      let bare = WalkedFile(
        path: "/home/me/Pictures/2024/no-exif.png", size: 3_500_000, modified: Self.modified)
      #expect(facts.header(of: bare) == PhotoHeader())
      let motionPhoto = WalkedFile(
        path: "/home/me/Pictures/2024/PXL_1.MP.jpg", size: 3_500_000, modified: Self.modified)
      #expect(facts.header(of: motionPhoto)?.appendedMotion == 2_000_000..<3_500_000)
      // Another folder has none.
      #expect(store.facts(ofFolder: "/home/me/Pictures").count == 0)
    }
  }

  /// What a sidecar said comes back while the photo and its sidecar are as they were; a
  /// sidecar rewritten, removed or added makes the photo's facts unknown.
  @Test func aCullingComesBackWhileItsSidecarIsUnchanged() async throws {
    try await TemporaryFolder.with { directory in
      let store = PhotoFactsStore(directory: directory)
      let sidecar = XMPSidecar(name: "été\t1.CR2.xmp", size: 4_096, modified: Self.modified)
      var rated = Self.camera
      rated.culling = PhotoCulling(
        rating: 0, label: .purple, tags: ["100% wedding", "Places/Île de Ré", "a\tb"],
        title: "Île de Ré · 100% été")
      var rejected = PhotoHeader()
      rejected.culling = PhotoCulling(rating: -1)
      try store.store(
        [
          PhotoFactsStore.Entry(
            name: "été\t1.JPG", size: 10, modified: Self.modified, header: rated, sidecar: sidecar),
          PhotoFactsStore.Entry(
            name: "2.JPG", size: 10, modified: Self.modified, header: rejected,
            sidecar: XMPSidecar(name: "2.xmp", size: 1, modified: Self.modified)),
        ], ofFolder: "/p")
      let facts = store.facts(ofFolder: "/p")
      func file(_ name: String, _ sidecar: XMPSidecar?) -> WalkedFile {
        WalkedFile(path: "/p/" + name, size: 10, modified: Self.modified, sidecar: sidecar)
      }
      #expect(facts.header(of: file("été\t1.JPG", sidecar)) == rated)
      #expect(facts.header(of: file("été\t1.JPG", sidecar))?.rating == 0)
      #expect(
        facts.header(of: file("2.JPG", XMPSidecar(name: "2.xmp", size: 1, modified: Self.modified)))
          == rejected)
      var rewritten = sidecar
      rewritten.modified = Self.modified.addingTimeInterval(1)
      #expect(facts.header(of: file("été\t1.JPG", rewritten)) == nil)
      rewritten = sidecar
      rewritten.size += 1
      #expect(facts.header(of: file("été\t1.JPG", rewritten)) == nil)
      #expect(facts.header(of: file("été\t1.JPG", nil)) == nil)
      #expect(
        facts.header(
          of: file(
            "été\t1.JPG", XMPSidecar(name: "été\t1.xmp", size: 4_096, modified: Self.modified)))
          == nil)
    }
  }

  /// A video's duration and creation date come back, also for a file larger than any
  /// photo's limit (a phone's 6-GB clip).
  @Test func aVideosFactsComeBack() async throws {
    try await TemporaryFolder.with { directory in
      let store = PhotoFactsStore(directory: directory)
      let clip = PhotoHeader(
        exif: ExifFacts(taken: WallClockTime(exif: "2021:06:05 12:20:30")), duration: 42.5)
      let long = PhotoHeader(duration: VideoFacts.maxDuration)
      let loop = PhotoHeader(pixelSize: PixelSize(width: 320, height: 240), isAnimated: true)
      try store.store(
        [
          Self.entry("clip.mp4", size: 6_000_000_000, header: clip),
          Self.entry("long.mkv", header: long), Self.entry("loop.gif", header: loop),
        ], ofFolder: "/v")
      let facts = store.facts(ofFolder: "/v")
      let file = WalkedFile(path: "/v/clip.mp4", size: 6_000_000_000, modified: Self.modified)
      #expect(facts.header(of: file) == clip)
      let other = WalkedFile(path: "/v/long.mkv", size: 3_500_000, modified: Self.modified)
      #expect(facts.header(of: other) == long)
      let gif = WalkedFile(path: "/v/loop.gif", size: 3_500_000, modified: Self.modified)
      #expect(facts.header(of: gif)?.isAnimated == true)
    }
  }

  @Test func aChangedFileIsReadAgain() async throws {
    try await TemporaryFolder.with { directory in
      let store = PhotoFactsStore(directory: directory)
      try store.store([Self.entry("a.jpg", header: Self.camera)], ofFolder: "/p")
      let facts = store.facts(ofFolder: "/p")
      let same = WalkedFile(path: "/p/a.jpg", size: 3_500_000, modified: Self.modified)
      #expect(facts.header(of: same) == Self.camera)
      var resized = same
      resized.size += 1
      #expect(facts.header(of: resized) == nil)
      var touched = same
      // A nanosecond later: the stored time compares exactly, not rounded.
      touched.modified = Date(
        timeIntervalSince1970: Self.modified.timeIntervalSince1970.nextUp)
      #expect(facts.header(of: touched) == nil)
    }
  }

  @Test func filesAreThisUsersOnly() async throws {
    try await TemporaryFolder.with { directory in
      let folder = directory.appendingPathComponent("cache/photo-facts")
      let store = PhotoFactsStore(directory: folder)
      try store.store([Self.entry("a.jpg", header: Self.camera)], ofFolder: "/p")
      let file = store.url(ofFolder: "/p")
      let fileMode = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions]
      let folderMode = try FileManager.default.attributesOfItem(atPath: folder.path)[
        .posixPermissions]
      #expect(fileMode as? Int == 0o600)
      #expect(folderMode as? Int == 0o700)
      // Nothing temporary is left beside it.
      #expect(
        try FileManager.default.contentsOfDirectory(atPath: folder.path) == [file.lastPathComponent]
      )
    }
  }

  /// The files are a cache, still read as input from outside: numbers out of range, fields
  /// missing, escapes that do not exist, a file for another folder (a name collision), a
  /// symbolic link, or a file of another format leave those lines (or the file) unused.
  @Test func damagedOrForgedFilesAreNotBelieved() async throws {
    try await TemporaryFolder.with { directory in
      let store = PhotoFactsStore(directory: directory)
      let bits = String(Self.modified.timeIntervalSince1970.bitPattern, radix: 16)
      // The fields before the sidecar's (a photo without one nor appended motion), then
      // model and name.
      func line(_ fields: [String]) -> String {
        (fields.prefix(9) + ["", "", "", "", "", "", "", "", ""] + fields.dropFirst(9))
          .joined(separator: "\t")
      }
      // A motion photo of 1,000 bytes: its video's start and length.
      func motion(_ start: String, _ length: String, _ name: String) -> String {
        (["1000", bits] + Array(repeating: "", count: 12) + [start, length, "", "", "", name])
          .joined(separator: "\t")
      }
      // A photo with a sidecar: its rating, label, size, time and name, its tags and title.
      func culled(
        _ rating: String, _ label: String, sidecar: String, tags: String = "",
        title: String = "", _ name: String
      ) -> String {
        (["10", bits, "", "", "", "", "", "", "", rating, label, "12", bits, sidecar, "", ""]
          + [tags, title, "", name])
          .joined(separator: "\t")
      }
      let lines = [
        PhotoFactsStore.formatLine, "/p",
        line(["10", bits, "640", "480", "", "", "", "", "", "", "good.jpg"]),
        line(["10", bits, "99999999999999999999", "480", "", "", "", "", "", "", "huge-width.jpg"]),
        line(["10", bits, "0", "480", "", "", "", "", "", "", "zero-width.jpg"]),
        line(["10", bits, "640", "6", "", "", "", "", "", "", "needle.jpg"]),
        line(["-10", bits, "", "", "", "", "", "", "", "", "negative-size.jpg"]),
        line(["+10", bits, "", "", "", "", "", "", "", "", "signed-size.jpg"]),
        line(["10", bits, "", "", "9", "", "", "", "", "", "orientation-9.jpg"]),
        line(["10", bits, "", "", "", "999999999999999999", "", "", "", "", "far-future.jpg"]),
        line(["10", "7ff0000000000000", "", "", "", "", "", "", "", "", "infinite-time.jpg"]),
        line(["10", bits, "", "", "", "", "", "", "", "", "bad%zzescape.jpg"]),
        line(["10", bits, "", "", "", "", "", "", "", "", "a/b.jpg"]),
        line([
          "10", bits, "", "", "", "", "", "", "", String(repeating: "m", count: 200),
          "long-model.jpg",
        ]),
        line(["10", bits, "", "", "", "", "", "", "", "too-few-fields.jpg"]),
        line(["10", bits, "", "", "", "", "3000", "", "", "", "video.mp4"]),
        line(["10", bits, "", "", "", "", "0", "", "", "", "zero-duration.mp4"]),
        line(["10", bits, "", "", "", "", "-5", "", "", "", "negative-duration.mp4"]),
        line(["10", bits, "", "", "", "", "1.5", "", "", "", "fractional-duration.mp4"]),
        line(["10", bits, "", "", "", "", "99999999999999", "", "", "", "centuries.mp4"]),
        line(["10", bits, "", "", "", "", "nan", "", "", "", "nan-duration.mp4"]),
        line(["10", bits, "", "", "", "", "", "a", "", "", "loop.gif"]),
        line(["10", bits, "", "", "", "", "", "", "4", "", "rated.jpg"]),
        line(["10", bits, "", "", "", "", "", "", "6", "", "rating-6.jpg"]),
        line(["10", bits, "", "", "", "", "", "", "-1", "", "rating-minus-one.jpg"]),
        line(["10", bits, "", "", "", "", "", "x", "", "", "bad-animation-flag.gif"]),
        culled("-1", "3", sidecar: "picked.xmp", "picked.jpg"),
        culled("6", "", sidecar: "six.xmp", "six-stars.jpg"),
        culled("-2", "", sidecar: "x.xmp", "below-reject.jpg"),
        culled("+3", "", sidecar: "x.xmp", "signed-rating.jpg"),
        culled("", "7", sidecar: "x.xmp", "label-7.jpg"),
        culled("", "0", sidecar: "x.xmp", "label-0.jpg"),
        culled("3", "", sidecar: "", "rating-without-sidecar.jpg"),
        culled("3", "", sidecar: "a/b.xmp", "sidecar-elsewhere.jpg"),
        culled("", "", sidecar: "t.xmp", tags: "wedding%0APeople/Ann", "tagged.jpg"),
        culled("", "", sidecar: "", tags: "wedding", "tags-from-the-file.jpg"),
        culled(
          "", "", sidecar: "t.xmp",
          tags: (0...PhotoCulling.maxTags).map { "t\($0)" }.joined(separator: "%0A"),
          "too-many-tags.jpg"),
        culled(
          "", "", sidecar: "t.xmp", tags: String(repeating: "w", count: 257), "overlong-tag.jpg"),
        culled("", "", sidecar: "t.xmp", title: "Pier at dusk, 100%25", "titled.jpg"),
        culled("", "", sidecar: "", title: "Pier", "title-from-the-file.jpg"),
        culled("", "2", sidecar: "", "label-from-the-file.jpg"),
        culled(
          "", "", sidecar: "t.xmp", title: String(repeating: "w", count: 257),
          "overlong-title.jpg"),
        motion("600", "400", "moving.jpg"),
        motion("600", "401", "motion-past-the-end.jpg"),
        motion("1000", "1", "motion-after-the-end.jpg"),
        motion("0", "1000", "motion-is-the-whole-file.jpg"),
        motion("-5", "10", "motion-negative.jpg"),
        motion("600", "0", "motion-empty.jpg"),
        motion("600", "", "motion-no-length.jpg"),
        motion("99999999999999999999", "1", "motion-huge.jpg"),
        "\u{FF}\u{FE} not even text",
      ]
      try Data(lines.joined(separator: "\n").utf8).write(to: store.url(ofFolder: "/p"))
      let facts = store.facts(ofFolder: "/p")
      #expect(
        facts.entries.keys.sorted() == [
          "good.jpg", "label-from-the-file.jpg", "loop.gif", "moving.jpg", "picked.jpg",
          "rated.jpg", "tagged.jpg", "tags-from-the-file.jpg", "title-from-the-file.jpg",
          "titled.jpg", "video.mp4",
        ])
      // A label, tags and a title the file's own XMP holds need no sidecar; a rating or a
      // rejection of the culling does (the file's is EXIF's field).
      #expect(
        facts.entries["tags-from-the-file.jpg"]?.header.culling == PhotoCulling(tags: ["wedding"]))
      #expect(
        facts.entries["title-from-the-file.jpg"]?.header.culling == PhotoCulling(title: "Pier"))
      #expect(
        facts.entries["label-from-the-file.jpg"]?.header.culling?.label
          == .yellow)
      #expect(
        facts.entries["tagged.jpg"]?.header.culling
          == PhotoCulling(tags: ["wedding", "People/Ann"]))
      #expect(
        facts.entries["titled.jpg"]?.header.culling == PhotoCulling(title: "Pier at dusk, 100%"))
      #expect(facts.entries["moving.jpg"]?.header.appendedMotion == 600..<1000)
      #expect(
        facts.entries["picked.jpg"]?.header.culling == PhotoCulling(rating: -1, label: .green))
      #expect(
        facts.entries["picked.jpg"]?.sidecar
          == XMPSidecar(name: "picked.xmp", size: 12, modified: Self.modified))
      #expect(facts.entries["rated.jpg"]?.header.exif?.rating == 4)
      #expect(facts.entries["loop.gif"]?.header.isAnimated == true)
      #expect(facts.entries["video.mp4"]?.header.duration == 3)
      // The same file read for another folder (as if their names' hashes collided): unused.
      try FileManager.default.copyItem(at: store.url(ofFolder: "/p"), to: store.url(ofFolder: "/q"))
      #expect(store.facts(ofFolder: "/q").count == 0)
      // Another format's first line: unused.
      try Data(("tessera-photo-facts 2\n/p\n" + lines[2]).utf8).write(to: store.url(ofFolder: "/p"))
      #expect(store.facts(ofFolder: "/p").count == 0)
      // A symbolic link where the file should be: not followed.
      try FileManager.default.removeItem(at: store.url(ofFolder: "/p"))
      try FileManager.default.createSymbolicLink(
        at: store.url(ofFolder: "/p"), withDestinationURL: store.url(ofFolder: "/q"))
      #expect(store.facts(ofFolder: "/p").count == 0)
    }
  }

  @Test func aFileOfAnyFolderNameIsTheFolderItsFilesAreIn() {
    #expect(WalkedFile(path: "/a/b/c.jpg", size: 1, modified: .now).folder == "/a/b")
    #expect(WalkedFile(path: "/c.jpg", size: 1, modified: .now).folder == "/")
    #expect(WalkedFile(path: "c.jpg", size: 1, modified: .now).folder == ".")
    #expect(WalkedFile(path: "rel/c.jpg", size: 1, modified: .now).folder == "rel")
  }
}
