import Foundation
import TesseraPhotoFormats
import TesseraTestSupport
import Testing

/// `tessera find` as a script runs it: the paths a filter selects, from what the photos'
/// headers and XMP sidecars say, one a line or NUL-separated; the exit status says whether
/// any matched, and a filter it cannot read is refused with the term named.
@Suite(.timeLimit(.minutes(2)))
struct FindCommandTests {
  /// a.jpg: an X100V's, May 2024, 4 stars, red, "wedding"; b.jpg: a Pixel 8's, December
  /// 2023, rejected in a Lightroom-named sidecar; c.jpg: no EXIF, 2 stars, tagged People/Ann;
  /// d.jpg: no sidecar, green and "harbour" in its own XMP (as Lightroom writes into a JPEG).
  static func shoot() throws -> URL {
    let folder = TemporaryFolder.make(prefix: "tessera-find")
    let jpeg = try InfoCommandTests.jpeg()
    func photo(_ name: String, _ writer: ExifWriter?) throws {
      let bytes = writer.map { $0.splicing(into: jpeg) } ?? jpeg
      try Data(bytes).write(to: folder.appendingPathComponent(name))
    }
    try photo("a.jpg", ExifWriter(model: "FUJIFILM X100V", dateTaken: "2024:05:01 10:00:00"))
    try photo("b.jpg", ExifWriter(model: "Pixel 8", dateTaken: "2023:12:24 18:00:00"))
    try photo("c.jpg", nil)
    try photo("d.jpg", nil)
    try ExifTool.run([
      "-q", "-overwrite_original", "-XMP-xmp:Label=Green", "-XMP-dc:Subject=harbour",
      folder.appendingPathComponent("d.jpg").path,
    ])
    try ExifTool.run([
      "-q", "-o", folder.appendingPathComponent("a.jpg.xmp").path, "-XMP-xmp:Rating=4",
      "-XMP-xmp:Label=Red", "-XMP-dc:Subject=wedding",
    ])
    try ExifTool.run([
      "-q", "-o", folder.appendingPathComponent("b.xmp").path, "-XMP-xmp:Rating=-1",
    ])
    try ExifTool.run([
      "-q", "-o", folder.appendingPathComponent("c.jpg.xmp").path, "-XMP-xmp:Rating=2",
      "-XMP-lr:HierarchicalSubject=People|Ann",
    ])
    return folder
  }

  /// The names `tessera find FOLDER --filter FILTER` prints, and its exit status.
  static func find(
    _ folder: URL, _ filter: String, cache: URL
  ) throws -> (names: Set<String>, status: Int32) {
    let run = try Spawn.run([
      "env", "XDG_CACHE_HOME=\(cache.path)", GalleryBinary.path, "find", folder.path, "--filter",
      filter,
    ])
    let names = run.output.split(separator: "\n").map { ($0 as NSString).lastPathComponent }
    return (Set(names), run.status)
  }

  @Test func eachTermSelectsWhatTheSidecarsAndHeadersSay() throws {
    let folder = try Self.shoot()
    defer { try? FileManager.default.removeItem(at: folder) }
    let cache = folder.appendingPathComponent(".cache")
    let cases: [(String, Set<String>)] = [
      ("rating>=3", ["a.jpg"]),
      ("rating>=2 rating<4", ["c.jpg"]),
      ("rejected", ["b.jpg"]),
      ("!rejected", ["a.jpg", "c.jpg", "d.jpg"]),
      ("label:red", ["a.jpg"]),
      ("label:green", ["d.jpg"]),
      ("tag:harbour", ["d.jpg"]),
      ("label:none", ["b.jpg", "c.jpg"]),
      ("tag:wedding", ["a.jpg"]),
      ("tag:ann", ["c.jpg"]),
      ("tag:People/Ann", ["c.jpg"]),
      ("camera:x100 date:2024-05", ["a.jpg"]),
      ("date<2024", ["b.jpg"]),
      ("name:b", ["b.jpg"]),
      ("", ["a.jpg", "b.jpg", "c.jpg", "d.jpg"]),
    ]
    // Twice: the second run takes every photo's facts from the store the first wrote.
    for round in 1...2 {
      for (filter, expected) in cases {
        let found = try Self.find(folder, filter, cache: cache)
        #expect(found.names == expected, "round \(round), \(filter)")
        #expect(found.status == 0, "round \(round), \(filter)")
      }
    }
    #expect(
      FileManager.default.fileExists(
        atPath: cache.appendingPathComponent("tessera/photo-facts").path))
    let none = try Self.find(folder, "rating=5", cache: cache)
    #expect(none.names.isEmpty || none.names == [""])
    #expect(none.status == 1)
  }

  @Test func pathsAreNULSeparatedWithDashZeroAndABadFilterIsNamed() throws {
    let folder = try Self.shoot()
    defer { try? FileManager.default.removeItem(at: folder) }
    let run = try Spawn.run([
      GalleryBinary.path, "find", folder.path, "--filter", "rating>=2", "-0", "--no-disk-cache",
    ])
    let paths = run.output.split(separator: "\0", omittingEmptySubsequences: false)
    #expect(paths.last == "" && paths.count == 3, "\(run.output.debugDescription)")
    #expect(
      Set(paths.dropLast().map(String.init)) == [folder.path + "/a.jpg", folder.path + "/c.jpg"])
    for (filter, named) in [
      ("stars>3", "“stars>3”"), ("rating>=9", "a rating is"), ("label:pink", "a label is"),
      ("date:2024-13", "a month is"), ("!", "needs a term"),
    ] {
      let bad = try Spawn.run([GalleryBinary.path, "find", folder.path, "--filter", filter])
      #expect(bad.status == 64, "\(filter): \(bad.output)")
      #expect(bad.output.contains(named), "\(filter): \(bad.output)")
    }
  }
}
