import Foundation
import TesseraPhotoFormats
import TesseraTestSupport
import Testing

@testable import TesseraPhotoLibrary

#if canImport(Glibc)
  import Glibc
#endif

/// A rating or label written into a sidecar changes those two properties and nothing else
/// another tool keeps there, atomically; what cannot be written safely is refused whole.
@Suite(.timeLimit(.minutes(1))) struct SidecarWriterTests {
  /// darktable's own sidecar, as it writes one: its history a sequence of structures, in
  /// attributes; plus Lightroom's develop settings and digiKam's tags.
  static let darktableSidecar = """
    <?xml version="1.0" encoding="UTF-8"?>
    <x:xmpmeta xmlns:x="adobe:ns:meta/" x:xmptk="XMP Core 4.4.0-Exiv2">
     <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
      <rdf:Description rdf:about=""
        xmlns:xmp="http://ns.adobe.com/xap/1.0/"
        xmlns:darktable="http://darktable.sf.net/"
        xmlns:crs="http://ns.adobe.com/camera-raw-settings/1.0/"
        xmlns:digiKam="http://www.digikam.org/ns/1.0/"
       xmp:Rating="2"
       xmp:Label="Second pick"
       darktable:xmp_version="5"
       darktable:raw_params="0"
       darktable:history_end="2"
       crs:Exposure2012="+0.50"
       crs:Temperature="5500">
       <darktable:history>
        <rdf:Seq>
         <rdf:li darktable:num="0" darktable:operation="exposure" darktable:enabled="1"
          darktable:modversion="6" darktable:params="0000000000000000000080400000803f"
          darktable:multi_name="" darktable:multi_priority="0"/>
         <rdf:li darktable:num="1" darktable:operation="colorbalancergb" darktable:enabled="1"
          darktable:modversion="5" darktable:params="gz12eJxjYGBgkGAAgRNODGiAEV0AAA=="
          darktable:multi_name="" darktable:multi_priority="0"/>
        </rdf:Seq>
       </darktable:history>
       <digiKam:TagsList>
        <rdf:Seq>
         <rdf:li>Places/France/Paris</rdf:li>
        </rdf:Seq>
       </digiKam:TagsList>
      </rdf:Description>
     </rdf:RDF>
    </x:xmpmeta>
    """

  /// Every tag exiftool reads in `path`, by group and name, with structures whole.
  func exiftoolTags(_ path: String) throws -> [String: String] {
    let json = try ExifTool.run(["-j", "-G1", "-struct", "-n", "-XMP:all", path])
    let objects = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]]
    var tags: [String: String] = [:]
    // x:xmptk names the toolkit that wrote the file last: every writer puts its own there.
    for (key, value) in objects?.first ?? [:]
    where key != "SourceFile" && key != "XMP-x:XMPToolkit" {
      // Structures as JSON with sorted keys: their order in a dictionary says nothing.
      let rendered = try JSONSerialization.data(
        withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed])
      tags[key] = String(decoding: rendered, as: UTF8.self)
    }
    return tags
  }

  @Test func aRatingAndLabelChangeNothingElseAnotherToolKeeps() async throws {
    try await TemporaryFolder.with { folder in
      let path = folder.appendingPathComponent("IMG_0001.CR2.xmp").path
      try Data(Self.darktableSidecar.utf8).write(to: URL(fileURLWithPath: path))
      let before = try exiftoolTags(path)
      #expect(before["XMP-darktable:History"]?.contains("colorbalancergb") == true, "\(before)")
      #expect(before["XMP-crs:Exposure2012"] == #""+0.50""#, "\(before)")

      let rated = try SidecarWriter.apply(.rating(4), toSidecarAt: path)
      #expect(rated.ratingBefore == "2" && rated.labelBefore == "Second pick")
      let labelled = try SidecarWriter.apply(.label(.red), toSidecarAt: path)
      #expect(
        labelled.culling == PhotoCulling(rating: 4, label: .red, tags: ["Places/France/Paris"]))

      var after = try exiftoolTags(path)
      #expect(after.removeValue(forKey: "XMP-xmp:Rating") == "4")
      #expect(after.removeValue(forKey: "XMP-xmp:Label") == #""Red""#)
      var expected = before
      expected.removeValue(forKey: "XMP-xmp:Rating")
      expected.removeValue(forKey: "XMP-xmp:Label")
      #expect(after == expected)
      // exiv2, the library darktable and digiKam read sidecars with, reads it too.
      let exiv2 = try Exiv2.run(["-q", "-K", "Xmp.xmp.Rating", "-K", "Xmp.xmp.Label", "-Pv", path])
      #expect(exiv2.split(separator: "\n") == ["4", "Red"], "\(exiv2)")
      // What the walk reads: the tag Lightroom wrote kept beside them.
      #expect(
        LocalPhotoHeaderReader().culling(ofSidecarAt: path)
          == PhotoCulling(rating: 4, label: .red, tags: ["Places/France/Paris"]))
      // The stamp returned is the file's.
      let attributes = try FileManager.default.attributesOfItem(atPath: path)
      #expect(labelled.sidecar.size == (attributes[.size] as? Int))
    }
  }

  /// `#`'s change: a keyword into `dc:subject`, a path into Lightroom's and digiKam's arrays
  /// with its last level a keyword, a removal from all three; exiftool and exiv2 read them,
  /// everything else darktable wrote stays, and the undo puts the arrays back.
  @Test func tagsGoWhereEachToolLooksAndAnUndoPutsThemBack() async throws {
    try await TemporaryFolder.with { folder in
      let path = folder.appendingPathComponent("a.jpg.xmp").path
      try Data(Self.darktableSidecar.utf8).write(to: URL(fileURLWithPath: path))
      let before = try exiftoolTags(path)
      let written = try SidecarWriter.apply(
        .tags(add: ["wedding", "People/Ann"], remove: []), toSidecarAt: path)
      // Keywords, then Lightroom's paths, then digiKam's (`XMPCulling`'s order).
      #expect(written.culling?.tags == ["wedding", "Ann", "People/Ann", "Places/France/Paris"])
      var after = try exiftoolTags(path)
      #expect(after["XMP-dc:Subject"] == #"["wedding","Ann"]"#, "\(after)")
      #expect(after["XMP-lr:HierarchicalSubject"] == #"["People|Ann"]"#, "\(after)")
      #expect(
        after["XMP-digiKam:TagsList"] == #"["Places\/France\/Paris","People\/Ann"]"#, "\(after)")
      for key in ["XMP-dc:Subject", "XMP-lr:HierarchicalSubject", "XMP-digiKam:TagsList"] {
        after.removeValue(forKey: key)
      }
      var kept = before
      kept.removeValue(forKey: "XMP-digiKam:TagsList")
      #expect(after == kept)
      let exiv2 = try Exiv2.run(["-q", "-K", "Xmp.dc.subject", "-Pv", path])
      #expect(exiv2.trimmingCharacters(in: .whitespacesAndNewlines) == "wedding, Ann", "\(exiv2)")

      // Removing a path takes it from both arrays and its keyword with it.
      let removed = try SidecarWriter.apply(
        .tags(add: [], remove: ["People/Ann", "Places/France/Paris"]), toSidecarAt: path)
      #expect(removed.culling?.tags == ["wedding"])
      #expect(try exiftoolTags(path)["XMP-digiKam:TagsList"] == nil)

      // Undone in turn, last first: darktable's sidecar as it was.
      let tagsBefore = try #require(removed.tagsBefore)
      _ = try SidecarWriter.apply(.restoreTags(tagsBefore), toSidecarAt: path)
      _ = try SidecarWriter.apply(.restoreTags(try #require(written.tagsBefore)), toSidecarAt: path)
      #expect(try exiftoolTags(path) == before)
    }
  }

  @Test func anUndoPutsBothPropertiesBackAsTheyWereWritten() async throws {
    try await TemporaryFolder.with { folder in
      let path = folder.appendingPathComponent("a.xmp").path
      try Data(Self.darktableSidecar.utf8).write(to: URL(fileURLWithPath: path))
      let before = try exiftoolTags(path)
      let rejected = try SidecarWriter.apply(.rating(-1), toSidecarAt: path)
      #expect(rejected.culling?.rating == PhotoCulling.rejected)
      let blue = try SidecarWriter.apply(.label(.blue), toSidecarAt: path)
      _ = try SidecarWriter.apply(
        .restore(rating: blue.ratingBefore, label: blue.labelBefore), toSidecarAt: path)
      _ = try SidecarWriter.apply(
        .restore(rating: rejected.ratingBefore, label: rejected.labelBefore), toSidecarAt: path)
      #expect(try exiftoolTags(path) == before)
      // Removing a label removes the property.
      _ = try SidecarWriter.apply(.label(nil), toSidecarAt: path)
      #expect(try exiftoolTags(path)["XMP-xmp:Label"] == nil)
    }
  }

  /// A sidecar made for a photo whose own file says a label, tags and a title starts with
  /// them (the photo would lose them otherwise: a sidecar's say replaces the file's); a
  /// sidecar that exists changes only as asked.
  @Test func aNewSidecarStartsWithWhatTheFileSays() async throws {
    try await TemporaryFolder.with { folder in
      let fromFile = PhotoCulling(label: .blue, tags: ["wedding", "People/Ann"], title: "Harbour")
      let new = folder.appendingPathComponent("new.jpg.xmp").path
      let written = try SidecarWriter.apply(.rating(3), toSidecarAt: new, fromFile: fromFile)
      #expect(written.created)
      #expect(
        LocalPhotoHeaderReader().culling(ofSidecarAt: new)
          == PhotoCulling(
            rating: 3, label: .blue, tags: ["wedding", "Ann", "People/Ann"], title: "Harbour"))
      let read = try ExifTool.run([
        "-s3", "-XMP-xmp:Label", "-XMP-dc:Title", "-XMP-lr:HierarchicalSubject", new,
      ])
      #expect(read.split(separator: "\n") == ["Blue", "Harbour", "People|Ann"], "\(read)")
      let old = folder.appendingPathComponent("old.xmp").path
      try Data(XMPNamespaces.packet(attributes: #"xmp:Rating="1""#)).write(
        to: URL(fileURLWithPath: old))
      _ = try SidecarWriter.apply(.rating(2), toSidecarAt: old, fromFile: fromFile)
      #expect(LocalPhotoHeaderReader().culling(ofSidecarAt: old) == PhotoCulling(rating: 2))
    }
  }

  @Test func aNewSidecarIsMadeAndAnOldOneKeepsItsPermissions() async throws {
    try await TemporaryFolder.with { folder in
      let new = folder.appendingPathComponent("new.jpg.xmp").path
      let written = try SidecarWriter.apply(.rating(3), toSidecarAt: new)
      #expect(written.ratingBefore == nil)
      #expect(try exiftoolTags(new)["XMP-xmp:Rating"] == "3")
      #expect(
        (try FileManager.default.attributesOfItem(atPath: new)[.posixPermissions] as? Int)
          == 0o644)
      let private_ = folder.appendingPathComponent("private.xmp").path
      try Data(XMPNamespaces.packet(attributes: #"xmp:Rating="1""#)).write(
        to: URL(fileURLWithPath: private_))
      chmod(private_, 0o600)
      _ = try SidecarWriter.apply(.rating(5), toSidecarAt: private_)
      #expect(
        (try FileManager.default.attributesOfItem(atPath: private_)[.posixPermissions] as? Int)
          == 0o600)
      // No temporary file is left behind.
      let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
      #expect(names == ["new.jpg.xmp", "private.xmp"], "\(names)")
    }
  }

  @Test func whatCannotBeWrittenSafelyIsRefusedAndLeftAsItIs() async throws {
    try await TemporaryFolder.with { folder in
      let target = folder.appendingPathComponent("elsewhere.xmp").path
      try Data(Self.darktableSidecar.utf8).write(to: URL(fileURLWithPath: target))
      let link = folder.appendingPathComponent("linked.xmp").path
      try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
      let notXMP = folder.appendingPathComponent("notes.xmp").path
      try Data("shopping list".utf8).write(to: URL(fileURLWithPath: notXMP))
      let huge = folder.appendingPathComponent("huge.xmp").path
      try Data(count: XMPPacket.maxPacketBytes + 1).write(to: URL(fileURLWithPath: huge))
      for (path, reason) in [
        (link, "is a symbolic link"), (notXMP, "is not XMP"), (huge, "is larger than"),
      ] {
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect {
          try SidecarWriter.apply(.rating(5), toSidecarAt: path)
        } throws: { error in
          "\(error)".contains(reason)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
      }
      #expect(
        try Data(contentsOf: URL(fileURLWithPath: target)) == Data(Self.darktableSidecar.utf8))
    }
  }

  @Test func aFolderThatCannotBeWrittenIsSaidSo() async throws {
    try await TemporaryFolder.with { folder in
      chmod(folder.path, 0o755)
      let path = folder.appendingPathComponent("a.xmp").path
      try Data(XMPNamespaces.packet(attributes: #"xmp:Rating="1""#)).write(
        to: URL(fileURLWithPath: path))
      let outcome = FolderWalkerTests.asNobody {
        Result { () throws(SidecarWriter.Failure) in
          try SidecarWriter.apply(.rating(5), toSidecarAt: path)
        }
      }
      guard case .failure(let failure) = outcome else {
        Issue.record("written as nobody into root's folder: \(outcome)")
        return
      }
      #expect(failure.description.contains("can't write “a.xmp”"), "\(failure)")
      #expect(failure.description.contains("ermission denied"), "\(failure)")
      #expect(LocalPhotoHeaderReader().culling(ofSidecarAt: path)?.rating == 1)
    }
  }

  @Test func aChangeGoesWhereTheWalkReadsOrWhereEachToolLooks() async throws {
    try await TemporaryFolder.with { folder in
      func file(_ name: String, raw: String? = nil) -> WalkedFile {
        WalkedFile(
          path: folder.appendingPathComponent(name).path, size: 1, modified: .now,
          rawCompanion: raw)
      }
      func names(_ paths: [String]) -> [String] { paths.map { ($0 as NSString).lastPathComponent } }
      // Nothing yet: the photo's own name, and its RAW's for a pair (darktable, digiKam).
      #expect(names(SidecarWriter.targets(for: file("a.jpg"))) == ["a.jpg.xmp"])
      #expect(
        names(SidecarWriter.targets(for: file("p.JPG", raw: "p.CR2"))) == [
          "p.JPG.xmp", "p.CR2.xmp",
        ])
      // Lightroom's stem sidecar is used when it is the only one.
      try Data().write(to: folder.appendingPathComponent("a.xmp"))
      #expect(names(SidecarWriter.targets(for: file("a.jpg"))) == ["a.xmp"])
      // The ones of the photo's and its RAW's names come first, in either spelling.
      try Data().write(to: folder.appendingPathComponent("p.CR2.XMP"))
      try Data().write(to: folder.appendingPathComponent("p.xmp"))
      #expect(names(SidecarWriter.targets(for: file("p.JPG", raw: "p.CR2"))) == ["p.CR2.XMP"])
    }
  }
}
