import Foundation
import TesseraTestSupport
import Testing

/// What culling tools decided shows on the tiles and in the detail view: stars, a reject, a
/// colour label, read from the sidecars darktable and Lightroom write.
@Suite(.timeLimit(.minutes(2))) struct CullingEndToEndTests {
  @Test func ratingsRejectsAndLabelsFromSidecarsShowOnTheTiles() throws {
    let root = TemporaryFolder.make(prefix: "tessera-culling")
    defer { try? FileManager.default.removeItem(at: root) }
    try Self.photos(["a.jpg", "b.jpg", "c.jpg"], in: root)
    // darktable's way: the whole name, properties as attributes.
    try Data(XMPNamespaces.packet(attributes: #"xmp:Rating="3" xmp:Label="Red""#))
      .write(to: root.appendingPathComponent("a.jpg.xmp"))
    // Lightroom's way, written by exiftool: the stem; a reject.
    try ExifTool.run(["-q", "-o", root.appendingPathComponent("b.xmp").path, "-XMP-xmp:Rating=-1"])

    let tmux = try ActingOnPhotosEndToEndTests.gallery("--sort name", in: root)
    let shown = try tmux.waitFor("the three photos with their ratings") {
      PathsInAndOutEndToEndTests.ready(3)($0) && Tmux.plain($0).contains("★★★ a.jpg")
        && Tmux.plain($0).contains("✗ b.jpg")
    }
    let plain = Tmux.plain(shown)
    #expect(plain.contains("▌★★★ a.jpg"), "\(plain)")
    #expect(!plain.contains("★ c.jpg") && !plain.contains("✗ c.jpg"), "\(plain)")
    // The label's mark is drawn in its colour; the reject's caption is dimmed.
    #expect(shown.contains("\u{1B}[38;2;220;50;50m▌"), "\(shown.debugDescription)")
    #expect(shown.contains("\u{1B}[38;2;118;118;118m✗ b.jpg"), "\(shown.debugDescription)")

    try tmux.send("Right")
    try tmux.send("Left")
    try tmux.send("Enter")
    try tmux.waitFor("a's detail names its rating, label and sidecar") {
      Tmux.plain($0).contains("★★★☆☆ · label Red · from a.jpg.xmp")
    }
    try tmux.send("Escape")
    try tmux.send("Right")
    try tmux.send("Enter")
    try tmux.waitFor("b's detail says rejected") {
      Tmux.plain($0).contains("rejected · from b.xmp")
    }
    try tmux.send("q")
    try tmux.send("q")
    try PathsInAndOutEndToEndTests.exited(tmux, in: root)
  }

  /// `--sort rating`: the best first, each rating under its header, rejects last.
  @Test func sortByRatingPutsTheBestFirstUnderHeaders() throws {
    let root = TemporaryFolder.make(prefix: "tessera-culling-sort")
    defer { try? FileManager.default.removeItem(at: root) }
    try Self.photos(["a.jpg", "b.jpg", "c.jpg"], in: root)
    try Data(XMPNamespaces.packet(attributes: #"xmp:Rating="-1""#))
      .write(to: root.appendingPathComponent("a.jpg.xmp"))
    try Data(XMPNamespaces.packet(attributes: #"xmp:Rating="5""#))
      .write(to: root.appendingPathComponent("c.jpg.xmp"))
    let tmux = try ActingOnPhotosEndToEndTests.gallery("--sort rating", in: root)
    let shown = try tmux.waitFor("the photos under their ratings' headers") {
      Tmux.plain($0).contains("photos 1–2 of 3") && Tmux.plain($0).contains("rejected · 1 photo")
    }
    let lines = Tmux.plain(shown).split(separator: "\n").map(String.init)
    func row(_ text: String) -> Int? { lines.firstIndex { $0.contains(text) } }
    // The rejected photo's tile is below the screen; its header shows.
    let rows = [
      "★★★★★ · 1 photo", "★★★★★ c.jpg", "no stars · 1 photo", "b.jpg", "rejected · 1 photo",
    ]
    .map(row)
    #expect(rows.allSatisfy { $0 != nil }, "\(rows) in\n\(lines.joined(separator: "\n"))")
    let found = rows.compactMap { $0 }
    #expect(found == found.sorted(), "out of order: \(rows) in\n\(lines.joined(separator: "\n"))")
    try tmux.send("q")
    try PathsInAndOutEndToEndTests.exited(tmux, in: root)
  }

  /// Small JPEGs named `names` in `root`, a day apart from 2024-05-01, each a shade darker.
  static func photos(_ names: [String], in root: URL) throws {
    for (index, name) in names.enumerated() {
      try LocalFolderEndToEndTests.write(
        try LocalFolderEndToEndTests.jpeg(UInt8(60 * index)), to: name, in: root,
        modified: "2024-05-0\(index + 1)T10:00:00Z")
    }
  }

  /// The Rating exiftool reads in `path`; nil when the file or the tag is absent.
  static func rating(_ path: URL) -> String? {
    guard FileManager.default.fileExists(atPath: path.path),
      let text = try? ExifTool.run(["-s3", "-XMP-xmp:Rating", path.path])
    else { return nil }
    let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
    return trimmed.isEmpty ? nil : trimmed
  }

  /// The Rating exiv2 (the library darktable and digiKam read XMP with) reads in `path`.
  static func exiv2Rating(_ path: URL) -> String? {
    let text = try? Exiv2.run(["-q", "-K", "Xmp.xmp.Rating", "-Pv", path.path])
    return text?.trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// The issue's test as written: `3` on a photo and `x` on another write ratings 3 and −1
  /// into their sidecars, which exiftool and exiv2 read; the photos stay byte-identical.
  @Test func keysRateRejectLabelAndUndoInTheSidecars() throws {
    let root = TemporaryFolder.make(prefix: "tessera-culling-keys")
    defer { try? FileManager.default.removeItem(at: root) }
    try Self.photos(["a.jpg", "b.jpg", "p.JPG"], in: root)
    try Data(RawFixtures.cr2(orientation: 1)).write(to: root.appendingPathComponent("p.CR2"))
    // a.jpg's sidecar holds another tool's work, which must survive.
    try ExifTool.run([
      "-q", "-o", root.appendingPathComponent("a.jpg.xmp").path, "-XMP-xmp:Rating=1",
      "-XMP-crs:Exposure2012=+0.50", "-XMP-dc:Subject=harbour",
    ])
    let photoNames = ["a.jpg", "b.jpg", "p.JPG", "p.CR2"]
    let photoBytes = try photoNames.map { try Data(contentsOf: root.appendingPathComponent($0)) }
    let tmux = try ActingOnPhotosEndToEndTests.gallery("--sort name", in: root)
    try tmux.waitFor("the photos") {
      PathsInAndOutEndToEndTests.ready(3)($0) && Tmux.plain($0).contains("★ a.jpg")
    }
    // a.jpg is selected: three stars, then red.
    try tmux.send("3")
    try tmux.waitFor("a rated") {
      Tmux.plain($0).contains("★★★ on 1 photo · u undoes")
        && Tmux.plain($0).contains("★★★ a.jpg")
    }
    try tmux.send("6")
    try tmux.waitFor("a labelled") { Tmux.plain($0).contains("label Red on 1 photo") }
    let a = root.appendingPathComponent("a.jpg.xmp")
    #expect(Self.rating(a) == "3")
    #expect(Self.exiv2Rating(a) == "3")
    let kept = try ExifTool.run([
      "-s3", "-XMP-crs:Exposure2012", "-XMP-dc:Subject", "-XMP-xmp:Label", a.path,
    ])
    #expect(kept.split(separator: "\n") == ["+0.50", "harbour", "Red"], "\(kept)")

    // b.jpg has no sidecar: x makes one; u takes it away again.
    try tmux.send("Right")
    try tmux.send("x")
    try tmux.waitFor("b rejected") {
      Tmux.plain($0).contains("rejected on 1 photo") && Tmux.plain($0).contains("✗ b.jpg")
    }
    let b = root.appendingPathComponent("b.jpg.xmp")
    #expect(Self.rating(b) == "-1")
    #expect(Self.exiv2Rating(b) == "-1")
    try tmux.send("u")
    try tmux.waitFor("b's reject undone") {
      Tmux.plain($0).contains("undone on 1 photo") && !Tmux.plain($0).contains("✗ b.jpg")
    }
    #expect(!FileManager.default.fileExists(atPath: b.path))

    // The RAW+JPEG pair: a new sidecar for each file, where darktable and digiKam look.
    try tmux.send("Right")
    try tmux.send("5")
    try tmux.waitFor("the pair rated") { Tmux.plain($0).contains("★★★★★ RAW+ p.JPG") }
    #expect(Self.rating(root.appendingPathComponent("p.JPG.xmp")) == "5")
    #expect(Self.rating(root.appendingPathComponent("p.CR2.xmp")) == "5")
    try tmux.send("q")
    try PathsInAndOutEndToEndTests.exited(tmux, in: root)
    // The photos were never written: each is byte for byte as it was.
    for (name, bytes) in zip(photoNames, photoBytes) {
      #expect(try Data(contentsOf: root.appendingPathComponent(name)) == bytes, "\(name)")
    }
  }

  /// Keywords and a tag path exiftool wrote into a sidecar show in the detail view, and `/`
  /// selects by them (`tag:` a keyword, a level of a path, or the path).
  @Test func tagsExiftoolWroteShowAndFilterWithSlash() throws {
    let root = TemporaryFolder.make(prefix: "tessera-culling-tags")
    defer { try? FileManager.default.removeItem(at: root) }
    try Self.photos(["a.jpg", "b.jpg", "c.jpg"], in: root)
    try ExifTool.run([
      "-q", "-o", root.appendingPathComponent("b.jpg.xmp").path, "-XMP-dc:Subject=wedding",
      "-XMP-lr:HierarchicalSubject=People|Ann", "-XMP-dc:Title=Pier at dusk",
    ])
    try ExifTool.run([
      "-q", "-o", root.appendingPathComponent("c.xmp").path, "-XMP-dc:Subject=holiday",
    ])
    let tmux = try ActingOnPhotosEndToEndTests.gallery("--sort name", in: root)
    // On the tiles: each tag after the name, a path by its last level.
    try tmux.waitFor("the three photos with their tags") {
      PathsInAndOutEndToEndTests.ready(3)($0) && Tmux.plain($0).contains("b.jpg #wedding #Ann")
        && Tmux.plain($0).contains("c.jpg #holiday")
    }
    try tmux.send("Right")
    try tmux.send("Enter")
    try tmux.waitFor("b's detail names its title, tags and sidecar") {
      Tmux.plain($0).contains("“Pier at dusk” · tags wedding, People/Ann · from b.jpg.xmp")
    }
    try tmux.send("Escape")
    // An Escape and a "/" read together are Alt-/: the grid comes back first.
    try tmux.waitFor("the grid again") {
      PathsInAndOutEndToEndTests.ready(3)($0) && !Tmux.plain($0).contains("from b.jpg.xmp")
    }
    try tmux.send("/")
    try tmux.send("-l", "tag:ann")
    try tmux.send("Enter")
    let filtered = try tmux.waitFor("only b.jpg") {
      PathsInAndOutEndToEndTests.ready(1)($0) && Tmux.plain($0).contains("b.jpg")
    }
    let plain = Tmux.plain(filtered)
    #expect(!plain.contains("a.jpg") && !plain.contains("c.jpg"), "\(plain)")
    #expect(!plain.contains("tag: is read"), "\(plain)")
    try tmux.send("Escape")
    try tmux.waitFor("all three") { PathsInAndOutEndToEndTests.ready(3)($0) }
    try tmux.send("/")
    try tmux.send("-l", "!tag:wedding !tag:holiday")
    try tmux.send("Enter")
    let untagged = try tmux.waitFor("only a.jpg") {
      PathsInAndOutEndToEndTests.ready(1)($0) && Tmux.plain($0).contains("a.jpg")
    }
    #expect(!Tmux.plain(untagged).contains("b.jpg"), "\(Tmux.plain(untagged))")
    try tmux.send("q")
    try PathsInAndOutEndToEndTests.exited(tmux, in: root)
  }

  /// `#` tags the selected photo: Tab completes from the tags the library has, Enter writes
  /// the sidecar (exiftool reads it), the detail view names it, `u` takes it back.
  @Test func hashTagsWithCompletionAndUUndoes() throws {
    let root = TemporaryFolder.make(prefix: "tessera-culling-tagging")
    defer { try? FileManager.default.removeItem(at: root) }
    try Self.photos(["a.jpg", "b.jpg"], in: root)
    try ExifTool.run([
      "-q", "-o", root.appendingPathComponent("b.jpg.xmp").path, "-XMP-dc:Subject=wedding",
    ])
    let tmux = try ActingOnPhotosEndToEndTests.gallery("--sort name", in: root)
    try tmux.waitFor("both photos") { PathsInAndOutEndToEndTests.ready(2)($0) }
    try tmux.send("#")
    try tmux.send("-l", "wed")
    try tmux.waitFor("the completion offered") { Tmux.plain($0).contains("Tab: wedding") }
    try tmux.send("Tab")
    try tmux.send("-l", ", trip")
    try tmux.waitFor("what Enter does") {
      Tmux.plain($0).contains("Enter: +wedding +trip on 1 photo")
    }
    try tmux.send("Enter")
    try tmux.waitFor("the tags written") { Tmux.plain($0).contains("tags +wedding +trip") }
    let sidecar = root.appendingPathComponent("a.jpg.xmp").path
    let subject = try ExifTool.run(["-s3", "-XMP-dc:Subject", sidecar])
    #expect(subject.trimmingCharacters(in: .whitespacesAndNewlines) == "wedding, trip")
    try tmux.send("Enter")
    try tmux.waitFor("a's detail names its tags") {
      Tmux.plain($0).contains("tags wedding, trip · from a.jpg.xmp")
    }
    try tmux.send("u")
    try tmux.waitFor("the change undone") { Tmux.plain($0).contains("undone on 1 photo") }
    // The sidecar Tessera made for the tags is gone again.
    #expect(!FileManager.default.fileExists(atPath: sidecar))
    try tmux.send("q")
    try tmux.send("q")
    try PathsInAndOutEndToEndTests.exited(tmux, in: root)
  }

  /// `--filter` and `/` take the grammar `tessera find` takes.
  @Test func aFilterSelectsByRatingAndLabel() throws {
    let root = TemporaryFolder.make(prefix: "tessera-culling-filter")
    defer { try? FileManager.default.removeItem(at: root) }
    try Self.photos(["a.jpg", "b.jpg", "c.jpg"], in: root)
    try Data(XMPNamespaces.packet(attributes: #"xmp:Rating="3" xmp:Label="Green""#))
      .write(to: root.appendingPathComponent("a.jpg.xmp"))
    try Data(XMPNamespaces.packet(attributes: #"xmp:Rating="-1""#))
      .write(to: root.appendingPathComponent("b.jpg.xmp"))
    let tmux = try ActingOnPhotosEndToEndTests.gallery("--sort name --filter 'rating>=3'", in: root)
    let filtered = try tmux.waitFor("only a.jpg") {
      PathsInAndOutEndToEndTests.ready(1)($0) && Tmux.plain($0).contains("★★★ a.jpg")
        && Tmux.plain($0).contains("filter “rating>=3”")
    }
    #expect(!Tmux.plain(filtered).contains("b.jpg") && !Tmux.plain(filtered).contains("c.jpg"))
    try tmux.send("Escape")
    try tmux.waitFor("all three") { PathsInAndOutEndToEndTests.ready(3)($0) }
    try tmux.send("/")
    try tmux.send("-l", "!label:green !rejected")
    try tmux.send("Enter")
    let typed = try tmux.waitFor("only c.jpg") {
      PathsInAndOutEndToEndTests.ready(1)($0) && Tmux.plain($0).contains("c.jpg")
    }
    #expect(!Tmux.plain(typed).contains("a.jpg"), "\(Tmux.plain(typed))")
    try tmux.send("q")
    try PathsInAndOutEndToEndTests.exited(tmux, in: root)
    // A filter that is not one stops the launch with the reason.
    let bad = try Spawn.run([GalleryBinary.path, root.path, "--filter", "rating>=9"])
    #expect(bad.status == 64 && bad.output.contains("a rating is"), "\(bad.output)")
  }
}
