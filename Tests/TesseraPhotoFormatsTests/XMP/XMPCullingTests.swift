import Foundation
import TesseraTestSupport
import Testing

@testable import TesseraPhotoFormats

/// Ratings, labels, tags and titles as the culling tools write them in XMP.
@Suite(.timeLimit(.minutes(1))) struct XMPCullingTests {
  func culling(attributes: String = "", elements: String = "") throws -> XMPCulling {
    let declarations = """
      xmlns:lr="http://ns.adobe.com/lightroom/1.0/" \
      xmlns:digiKam="http://www.digikam.org/ns/1.0/"
      """
    let packet = try #require(
      XMPPacket(
        XMPNamespaces.packet(attributes: declarations + " " + attributes, elements: elements)))
    return XMPCulling(packet)
  }

  /// exiftool, the reference writer, makes the sidecar (each namespace in a description of
  /// its own, arrays as elements); every property comes back.
  @Test func exiftoolsSidecarIsReadWhole() async throws {
    try await TemporaryFolder.with(prefix: "tessera-xmp") { folder in
      let path = folder.appendingPathComponent("IMG_0001.CR2.xmp").path
      try ExifTool.run([
        "-q", "-o", path, "-XMP-xmp:Rating=4", "-XMP-xmp:Label=Red", "-XMP-dc:Subject=sea",
        "-XMP-dc:Subject=boat", "-XMP-lr:HierarchicalSubject=Places|France|Paris",
        "-XMP-digiKam:TagsList=Places/France/Paris", "-XMP-digiKam:TagsList=People/Ann",
        "-XMP-dc:Title=Harbour at dawn",
      ])
      let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
      let packet = try #require(XMPPacket(bytes))
      #expect(
        XMPCulling(packet)
          == XMPCulling(
            rating: 4, label: .red, keywords: ["sea", "boat"],
            tagPaths: [["Places", "France", "Paris"], ["People", "Ann"]],
            title: "Harbour at dawn"))
    }
  }

  /// darktable writes its properties as attributes; a reject is −1.
  @Test func attributesAndARejectAreRead() throws {
    let found = try culling(attributes: #"xmp:Rating="-1" xmp:Label="purple""#)
    #expect(found.rating == -1)
    #expect(found.label == .purple)
    #expect(found.keywords.isEmpty && found.tagPaths.isEmpty && found.title == nil)
    // A label the person named is kept as written.
    #expect(try culling(attributes: #"xmp:Label=" Second pick ""#).label == .other("Second pick"))
  }

  /// A rating is a real number within −1…5; anything else is no rating at all.
  @Test(
    arguments: [
      ("5", 5), ("0", 0), ("3.0", 3), ("2.6", 3), ("-1", -1), ("6", nil), ("-2", nil),
      ("99999999999999999999", nil), ("nan", nil), ("inf", nil), ("four", nil), ("", nil),
    ] as [(String, Int?)])
  func ratingsOutsideTheScaleAreRefused(text: String, rating: Int?) {
    #expect(XMPCulling.rating(text) == rating)
  }

  /// Tags from outside: repeats merged, empty parts dropped, each text cut to the limit.
  @Test func tagsAreMergedAndBounded() throws {
    let long = String(repeating: "é", count: XMPCulling.maxTextScalars + 50)
    let found = try culling(
      elements: """
        <lr:hierarchicalSubject><rdf:Bag><rdf:li>A|B</rdf:li><rdf:li>||</rdf:li>\
        </rdf:Bag></lr:hierarchicalSubject>\
        <digiKam:TagsList><rdf:Seq><rdf:li>A/B</rdf:li><rdf:li>\(long)</rdf:li></rdf:Seq>\
        </digiKam:TagsList>\
        <dc:subject><rdf:Bag><rdf:li> </rdf:li><rdf:li>x</rdf:li></rdf:Bag></dc:subject>
        """)
    #expect(found.tagPaths.count == 2)
    #expect(found.tagPaths.first == ["A", "B"])
    #expect(found.tagPaths.last?.first?.unicodeScalars.count == XMPCulling.maxTextScalars)
    #expect(found.keywords == ["x"])
  }

  /// Only the namespaces count: a `Rating` of another namespace, or one in a comment, is not
  /// the photo's.
  @Test func aRatingElsewhereIsNotThePhotos() throws {
    let found = try culling(
      attributes: #"xmlns:other="urn:other" other:Rating="5""#,
      elements: "<!-- <xmp:Rating>5</xmp:Rating> -->")
    #expect(found.rating == nil)
  }
}
