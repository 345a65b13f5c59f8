import Testing

@testable import TesseraPhotoFormats

@Suite(.timeLimit(.minutes(1))) struct XMPPacketTests {
  static let rdf = "xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\""

  @Test func aSimplePropertyIsReadAsAttributeOrElementAndACompositeIsNot() throws {
    let packet = try #require(
      XMPPacket(
        Array(
          """
          <rdf:RDF \(Self.rdf)><rdf:Description xmlns:xmp="http://ns.adobe.com/xap/1.0/" \
          xmlns:photoshop="http://ns.adobe.com/photoshop/1.0/" xmp:CreateDate="2001-02-03">\
          <photoshop:DateCreated>2004-05-06</photoshop:DateCreated>\
          <xmp:Identifier><rdf:Bag><rdf:li>a</rdf:li></rdf:Bag></xmp:Identifier>\
          </rdf:Description></rdf:RDF>
          """.utf8)))
    #expect(packet.property(.xmp, "CreateDate") == "2001-02-03")
    #expect(packet.property(.photoshop, "DateCreated") == "2004-05-06")
    #expect(packet.property(.xmp, "Identifier") == nil, "an array is no simple value")
    #expect(packet.property(.exif, "DateTimeOriginal") == nil)
  }

  @Test func theDepthCheckCountsElementsOnly() {
    #expect(XMPPacket.nestingDepth(Array("<a><b/><c><d></d></c></a>".utf8)) == 3)
    #expect(XMPPacket.nestingDepth(Array("<?xml?><!-- <x><y> --><a/>".utf8)) == 1)
    let deep = String(repeating: "<a>", count: XMPPacket.maxDepth + 1)
    #expect(XMPPacket(Array(deep.utf8)) == nil)
  }

  @Test func oversizedEmptyOrNonXMLBytesAreRefused() {
    #expect(XMPPacket([]) == nil)
    #expect(XMPPacket([UInt8](repeating: 0x20, count: XMPPacket.maxPacketBytes + 1)) == nil)
    #expect(XMPPacket(Array("<rdf:RDF><unclosed".utf8)) == nil)
  }
}
