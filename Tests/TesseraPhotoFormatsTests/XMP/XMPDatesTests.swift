import Foundation
import TesseraTestSupport
import Testing

@testable import TesseraPhotoFormats

/// XMP dates read as XML with namespaces: what a scan of the text took for the date taken
/// (a comment, a caption, another namespace's property of the same name) is not, and what it
/// missed (other prefixes for the same namespaces, exiftool's own layout) is.
@Suite(.timeLimit(.minutes(1))) struct XMPDatesTests {
  @Test func aDateInACommentOrACaptionIsNotTheDateTaken() {
    let comment = XMPNamespaces.packet(
      elements: "<!-- exif:DateTimeOriginal=\"2001-01-01T00:00:00\" -->")
    #expect(XMPDates.taken(comment) == nil)
    let caption = XMPNamespaces.packet(
      elements: """
        <dc:description><rdf:Alt><rdf:li xml:lang="x-default">copied from \
        exif:DateTimeOriginal="2001-01-01T00:00:00" and \
        &lt;exif:DateTimeOriginal&gt;2001-01-01T00:00:00&lt;/exif:DateTimeOriginal&gt;\
        </rdf:li></rdf:Alt></dc:description>
        """)
    #expect(XMPDates.taken(caption) == nil)
    // With a real date beside them, that one.
    let both = XMPNamespaces.packet(
      attributes: "photoshop:DateCreated=\"2019-05-06T07:08:09\"",
      elements: "<!-- exif:DateTimeOriginal=\"2001-01-01T00:00:00\" -->")
    #expect(XMPDates.taken(both)?.descriptionWithSeconds == "2019-05-06 07:08:09")
  }

  @Test func theNamespaceDecidesNotThePrefix() {
    // `exif:` bound to another namespace: not EXIF's date.
    let impostor = Array(
      """
      <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description \
      xmlns:exif="http://example.com/not-exif/" exif:DateTimeOriginal="2001-01-01T00:00:00"/>\
      </rdf:RDF>
      """.utf8)
    #expect(XMPDates.taken(impostor) == nil)
    // A name that merely ends in DateTimeOriginal, in another namespace.
    let suffixed = XMPNamespaces.packet(
      attributes: "xmlns:my=\"http://example.com/my/\" my:NotDateTimeOriginal=\"2001-01-01\"")
    #expect(XMPDates.taken(suffixed) == nil)
    // EXIF's namespace under a prefix no writer uses: its date.
    let renamed = Array(
      """
      <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description \
      xmlns:e="http://ns.adobe.com/exif/1.0/"><e:DateTimeOriginal>2012-03-04T05:06:07\
      </e:DateTimeOriginal></rdf:Description></rdf:RDF>
      """.utf8)
    #expect(XMPDates.taken(renamed)?.descriptionWithSeconds == "2012-03-04 05:06:07")
  }

  /// A billion laughs, nesting ten thousand deep, and bytes that are no XML: no date, in
  /// bounded time (the suite's limit), never a crash.
  @Test func hostilePacketsTellNoDate() {
    var laughs = "<?xml version=\"1.0\"?><!DOCTYPE x [<!ENTITY l0 \"ha\">"
    for level in 1...12 {
      laughs += "<!ENTITY l\(level) \"" + String(repeating: "&l\(level - 1);", count: 10) + "\">"
    }
    laughs += "]><x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF "
    laughs += "xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\"><rdf:Description "
    laughs += XMPNamespaces.declarations + " exif:DateTimeOriginal=\"2001-01-01\" "
    laughs += "dc:format=\"&l12;\"/></rdf:RDF></x:xmpmeta>"
    #expect(XMPDates.taken(Array(laughs.utf8)) == nil)
    let deep =
      String(repeating: "<rdf:Bag><rdf:li>", count: 10_000)
      + String(repeating: "</rdf:li></rdf:Bag>", count: 10_000)
    let nested = XMPNamespaces.packet(
      attributes: "exif:DateTimeOriginal=\"2001-01-01\"",
      elements: "<dc:subject>\(deep)</dc:subject>")
    #expect(XMPDates.taken(nested) == nil)
    #expect(XMPDates.taken([0xFF, 0xFE, 0x00, 0x3C] + Array(repeating: 0x80, count: 100)) == nil)
  }

  /// exiftool's own sidecar, as `exiftool -o x.xmp -XMP-exif:DateTimeOriginal=…` writes it.
  @Test func exiftoolsSidecarIsRead() async throws {
    try await TemporaryFolder.with(prefix: "tessera-xmp") { folder in
      let path = folder.appendingPathComponent("photo.xmp").path
      try ExifTool.run([
        "-q", "-o", path, "-XMP-exif:DateTimeOriginal=2016:07:08 09:10:11",
        "-XMP-dc:Description=taken 2001-01-01",
      ])
      let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
      #expect(XMPDates.taken(bytes)?.descriptionWithSeconds == "2016-07-08 09:10:11")
    }
  }
}
