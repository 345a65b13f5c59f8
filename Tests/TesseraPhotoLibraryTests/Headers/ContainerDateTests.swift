import Foundation
import TesseraTestSupport
import TesseraUtilities
import Testing

@testable import TesseraPhotoFormats
@testable import TesseraPhotoLibrary

/// PNG, WebP and JPEG XL files made by libvips, with EXIF, XMP and IPTC spliced in as the
/// writers do; `LocalPhotoHeaderReader` must find their dates, also past its first bytes, and
/// hostile chunks must read as no date, never a trap.
@Suite(.timeLimit(.minutes(1))) struct ContainerDateTests {
  static let exif = ExifWriter(model: "X100V", orientation: 6, dateTaken: "2023:07:14 09:15:30")

  static func read(_ file: [UInt8], as name: String) async throws -> PhotoHeader? {
    try await TemporaryFolder.with { folder in
      let path = folder.appendingPathComponent(name).path
      try Data(file).write(to: URL(fileURLWithPath: path))
      return LocalPhotoHeaderReader().header(ofFileAt: path)
    }
  }

  static func encoded(_ suffix: String) throws -> [UInt8] {
    let pixels = TestImages.gradientPixels(width: 16, height: 12)
    return [UInt8](try TestImages.encode(pixels, width: 16, height: 12, as: suffix))
  }

  static func xmp(_ value: String, property: String = "exif:DateTimeOriginal") -> [UInt8] {
    Array(
      """
      <?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/">
      <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
      <rdf:Description rdf:about="" \(XMPNamespaces.declarations) \(property)="\(value)"/>
      </rdf:RDF></x:xmpmeta>
      """.utf8)
  }

  // MARK: PNG

  /// `chunks` spliced in after IHDR (`early`) and before IEND (`late`).
  static func png(early: [UInt8] = [], late: [UInt8] = []) throws -> [UInt8] {
    let file = try encoded(".png")
    let afterHeader = 8 + 25
    return Array(file[..<afterHeader]) + early + Array(file[afterHeader..<(file.count - 12)])
      + late + Array(file.suffix(12))
  }

  /// libvips turns a PNG by its eXIf orientation (6: a quarter turn), so the size shown is
  /// the turned one. It was the stored one, and the decoded tile did not fill its cell.
  @Test func aPNGsEXIfChunkGivesDateCameraAndOrientation() async throws {
    let file = try Self.png(early: CraftedPNG.chunk("eXIf", Self.exif.tiff))
    let header = try #require(try await Self.read(file, as: "a.png"))
    #expect(header.exif?.taken?.description == "2023-07-14 09:15")
    #expect(header.exif?.model == "X100V")
    #expect(header.exif?.orientation == 6)
    #expect(header.pixelSize == PixelSize(width: 12, height: 16))
  }

  /// eXIf after 300 KB of other chunks: past the first bytes, found in the file's tail, and
  /// turning the size as it turns the picture (`PNGLateOrientation`).
  @Test func aPNGsEXIfAfterItsPixelsIsReadFromTheTail() async throws {
    let filler = CraftedPNG.chunk("prVt", [UInt8](repeating: 0x42, count: 300_000))
    let file = try Self.png(early: filler, late: CraftedPNG.chunk("eXIf", Self.exif.tiff))
    let header = try await Self.read(file, as: "late.png")
    #expect(header?.exif?.taken?.description == "2023-07-14 09:15")
    #expect(header?.pixelSize == PixelSize(width: 12, height: 16))
  }

  @Test func aPNGsXMPiTXtGivesTheDate() async throws {
    let text = Array("XML:com.adobe.xmp".utf8) + [0, 0, 0, 0, 0] + Self.xmp("2021-02-03T04:05:06")
    let file = try Self.png(early: CraftedPNG.chunk("iTXt", text))
    let header = try await Self.read(file, as: "x.png")
    #expect(header?.exif?.taken?.description == "2021-02-03 04:05")
  }

  /// XMP deflated as .NET and ImageMagick write it: in `zTXt`, or in an `iTXt` whose
  /// compression flag is 1.
  @Test func aPNGsDeflatedXMPIsInflated() async throws {
    let packet = Self.xmp("2019-09-02", property: "xmp:CreateDate")
    let deflated = try #require(PNGWriter.deflate(packet, level: 9))
    let keyword = Array("XML:com.adobe.xmp".utf8) + [0]
    for chunk in [
      CraftedPNG.chunk("zTXt", keyword + [0] + deflated),
      CraftedPNG.chunk("iTXt", keyword + [1, 0, 0, 0] + deflated),
    ] {
      let header = try await Self.read(try Self.png(early: chunk), as: "z.png")
      #expect(header?.exif?.taken?.description == "2019-09-02 00:00")
    }
  }

  @Test func aDeflatedXMPThatIsNoStreamOrExpandsPastItsLimitIsNotReadNorTriedTwice() throws {
    let keyword = Array("XML:com.adobe.xmp".utf8) + [0, 0]
    let bomb = [UInt8](repeating: 0x20, count: PNGChunks.maxInflatedBytes) + Self.xmp("2019-09-02")
    let good = try #require(PNGWriter.deflate(Self.xmp("2019-09-02"), level: 9))
    for first in [
      keyword + Array(try #require(PNGWriter.deflate(bomb, level: 9))),
      keyword + Array(good.dropLast()),  // cut
      keyword + [0xFF] + good,  // not zlib
    ] {
      // Only the first deflated XMP is inflated: a valid one after it is not read.
      let file = try Self.png(
        early: CraftedPNG.chunk("zTXt", first) + CraftedPNG.chunk("zTXt", keyword + good))
      #expect(EmbeddedMetadata.facts(file)?.taken == nil)
    }
    // Method 1 is no method PNG defines.
    let method1 = try Self.png(early: CraftedPNG.chunk("zTXt", keyword.dropLast() + [1] + good))
    #expect(EmbeddedMetadata.facts(method1)?.taken == nil)
  }

  /// ImageMagick's text: newline, name, newline, the length in eight columns, newline, hex.
  static func rawProfile(_ name: String, _ bytes: [UInt8], length: Int? = nil) -> [UInt8] {
    let digits = String(length ?? bytes.count)
    let hex = bytes.map { String($0, radix: 16) }.map { $0.count == 1 ? "0" + $0 : $0 }
    let lines = stride(from: 0, to: hex.count, by: 36).map {
      hex[$0..<min($0 + 36, hex.count)].joined()
    }
    return Array(
      ("\n\(name)\n" + String(repeating: " ", count: max(0, 8 - digits.count)) + digits + "\n"
        + lines.joined(separator: "\n") + "\n").utf8)
  }

  static func rawProfileChunk(_ type: String, _ text: [UInt8]) throws -> [UInt8] {
    let deflated = try #require(PNGWriter.deflate(text, level: 6))
    return CraftedPNG.chunk("zTXt", Array("Raw profile type \(type)".utf8) + [0, 0] + deflated)
  }

  /// `convert photo.jpg photo.png` keeps the JPEG's EXIF and XMP as hex in `zTXt` chunks.
  @Test func imageMagicksRawExifAndXMPProfilesGiveTheDate() async throws {
    let exif = Array("Exif".utf8) + [0, 0] + Self.exif.tiff
    let file = try Self.png(
      early: try Self.rawProfileChunk("exif", Self.rawProfile("exif", exif)))
    let header = try await Self.read(file, as: "converted.png")
    #expect(header?.exif?.taken?.description == "2023-07-14 09:15")
    #expect(header?.exif?.model == "X100V")
    let xmp = try Self.png(
      early: try Self.rawProfileChunk("xmp", Self.rawProfile("xmp", Self.xmp("2019-09-02"))))
    #expect(EmbeddedMetadata.facts(xmp)?.taken?.description == "2019-09-02 00:00")
  }

  @Test func aRawProfileShorterThanItsLengthOrNotHexIsNoProfile() {
    let packet = Self.xmp("2019-09-02")
    #expect(PNGRawProfile.bytes(Self.rawProfile("xmp", packet)) == packet)
    #expect(PNGRawProfile.bytes(Self.rawProfile("xmp", packet, length: packet.count + 1)) == nil)
    #expect(PNGRawProfile.bytes(Self.rawProfile("xmp", packet, length: 0)) == nil)
    #expect(PNGRawProfile.bytes(Self.rawProfile("xmp", packet, length: 99_999_999)) == nil)
    var notHex = Self.rawProfile("xmp", packet)
    notHex[notHex.count - 3] = 0x67  // "g"
    #expect(PNGRawProfile.bytes(notHex) == nil)
    #expect(PNGRawProfile.bytes([]) == nil)
    #expect(PNGRawProfile.bytes(Array("\nxmp\n".utf8)) == nil)
  }

  @Test func aPNGChunkWithABadCRCOrASizePastTheEndGivesNoDate() async throws {
    var chunk = CraftedPNG.chunk("eXIf", Self.exif.tiff)
    chunk[chunk.count - 1] ^= 0xFF
    #expect(try await Self.read(try Self.png(early: chunk), as: "crc.png")?.exif == nil)
    // A length claiming 1 GiB: the walk stops; the tail holds no whole chunk either.
    var long = CraftedPNG.chunk("eXIf", Self.exif.tiff)
    long.replaceSubrange(0..<4, with: [0x40, 0, 0, 0])
    #expect(try await Self.read(try Self.png(early: long), as: "long.png")?.exif == nil)
    // Cut in the middle of the chunk.
    let cut = try Self.png(early: CraftedPNG.chunk("eXIf", Self.exif.tiff)).prefix(60)
    #expect(try await Self.read(Array(cut), as: "cut.png")?.exif == nil)
  }

  // MARK: WebP

  /// A libvips WebP made extended: VP8X (flags), its image chunk, `between`, then `metadata`.
  static func webp(flags: UInt8, between: [UInt8] = [], metadata: [UInt8]) throws -> [UInt8] {
    let file = try encoded(".webp")
    let vp8x: [UInt8] = Array("VP8X".utf8) + [10, 0, 0, 0, flags, 0, 0, 0] + [15, 0, 0, 11, 0, 0]
    // libvips writes an extended file with its own EXIF (no date): keep its image chunks.
    var image: [UInt8] = []
    var index = 12
    while index + 8 <= file.count {
      let type = String(decoding: file[index..<index + 4], as: UTF8.self)
      let size = (0..<4).reduce(0) { $0 | Int(file[index + 4 + $1]) << (8 * $1) }
      let end = min(file.count, index + 8 + size + size % 2)
      if ["VP8 ", "VP8L", "ALPH"].contains(type) { image += file[index..<end] }
      index = end
    }
    let body = Array("WEBP".utf8) + vp8x + image + between + metadata
    let size = UInt32(body.count)
    return Array("RIFF".utf8) + (0..<4).map { UInt8(truncatingIfNeeded: size >> (8 * $0)) } + body
  }

  static func riffChunk(_ type: String, _ payload: [UInt8]) -> [UInt8] {
    let size = UInt32(payload.count)
    return Array(type.utf8) + (0..<4).map { UInt8(truncatingIfNeeded: size >> (8 * $0)) }
      + payload + (payload.count % 2 == 1 ? [0] : [])
  }

  @Test(arguments: [false, true])
  func aWebPsEXIFChunkGivesTheDate(withExifPrefix: Bool) async throws {
    let payload = (withExifPrefix ? Array("Exif".utf8) + [0, 0] : []) + Self.exif.tiff
    let file = try Self.webp(flags: 0x08, metadata: Self.riffChunk("EXIF", payload))
    let header = try #require(try await Self.read(file, as: "a.webp"))
    #expect(header.exif?.taken?.description == "2023-07-14 09:15")
    #expect(header.exif?.model == "X100V")
    // libvips turns a WebP by its EXIF orientation (6), with or without the prefix: so does
    // the size shown.
    #expect(header.pixelSize == PixelSize(width: 12, height: 16))
  }

  /// EXIF after 300 KB of other chunks, as after a large photo's image data: read on.
  @Test func aWebPsEXIFPastTheFirstBytesIsReadOn() async throws {
    let file = try Self.webp(
      flags: 0x08, between: Self.riffChunk("ZZZZ", [UInt8](repeating: 7, count: 300_001)),
      metadata: Self.riffChunk("EXIF", Self.exif.tiff))
    #expect(
      try await Self.read(file, as: "late.webp")?.exif?.taken?.description == "2023-07-14 09:15")
  }

  @Test func aWebPsXMPChunkGivesTheDate() async throws {
    let file = try Self.webp(
      flags: 0x04,
      metadata: Self.riffChunk("XMP ", Self.xmp("2020-12-31", property: "photoshop:DateCreated"))
    )
    #expect(try await Self.read(file, as: "x.webp")?.exif?.taken?.description == "2020-12-31 00:00")
  }

  // MARK: JPEG XL

  static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
    let size = UInt32(payload.count + 8)
    return (0..<4).map { UInt8(truncatingIfNeeded: size >> (24 - 8 * $0)) } + Array(type.utf8)
      + payload
  }

  /// A libvips JPEG XL codestream in a container: `before` boxes, `jxlc`, `after` boxes.
  static func jxl(before: [UInt8] = [], after: [UInt8] = []) throws -> [UInt8] {
    let codestream = try encoded(".jxl")
    try #require(codestream.starts(with: [0xFF, 0x0A]))
    return JXLBoxes.signature + box("ftyp", Array("jxl \0\0\0\0jxl ".utf8)) + before
      + box("jxlc", codestream) + after
  }

  @Test func aJPEGXLExifBoxGivesTheDate() async throws {
    let file = try Self.jxl(before: Self.box("Exif", [0, 0, 0, 0] + Self.exif.tiff))
    let header = try #require(try await Self.read(file, as: "a.jxl"))
    #expect(header.exif?.taken?.description == "2023-07-14 09:15")
    #expect(header.exif?.model == "X100V")
    #expect(header.exif?.orientation == nil)
  }

  @Test func aJPEGXLExifBoxAfterALargeBoxIsReadOn() async throws {
    let file = try Self.jxl(
      after: Self.box("zzzz", [UInt8](repeating: 1, count: 300_000))
        + Self.box("xml ", Self.xmp("2019-06-07T08:09:10+02:00", property: "xmp:CreateDate")))
    #expect(
      try await Self.read(file, as: "late.jxl")?.exif?.taken?.description == "2019-06-07 08:09")
  }

  @Test func aBrotliBoxIsNotRead() async throws {
    let file = try Self.jxl(before: Self.box("brob", Array("Exif".utf8) + [1, 2, 3, 4]))
    #expect(try await Self.read(file, as: "brob.jxl")?.exif == nil)
  }

  // MARK: JPEG

  /// IFD0's entries reversed: exiftool warns and reads them; so does ExifReader.
  @Test func ifd0EntriesOutOfTagOrderAreRead() throws {
    var tiff = Self.exif.tiff
    let count = Int(tiff[8]) | Int(tiff[9]) << 8
    let entries = (0..<count).map { Array(tiff[(10 + $0 * 12)..<(22 + $0 * 12)]) }
    tiff.replaceSubrange(10..<(10 + count * 12), with: entries.reversed().flatMap { $0 })
    let facts = try #require(ExifReader.facts(Self.exif.jpeg(tiff: tiff)))
    #expect(facts.taken?.description == "2023-07-14 09:15")
    #expect(facts.model == "X100V")
    #expect(facts.orientation == 6)
  }

  static func jpeg(exif: ExifWriter, segments: [(UInt8, [UInt8])]) -> [UInt8] {
    LocalPhotoHeaderReaderTests.jpeg(
      exif: exif, segments: segments.map { (marker: $0.0, payload: $0.1) }, scanBytes: 1_000)
  }

  static func xmpSegment(_ property: String, _ value: String) -> (UInt8, [UInt8]) {
    (0xE1, Array("http://ns.adobe.com/xap/1.0/\0".utf8) + xmp(value, property: property))
  }

  /// IPTC DateCreated and TimeCreated in a Photoshop APP13 resource 0x0404.
  static func iptcSegment(date: String, time: String) -> (UInt8, [UInt8]) {
    func dataset(_ number: UInt8, _ value: String) -> [UInt8] {
      [0x1C, 2, number, 0, UInt8(value.utf8.count)] + Array(value.utf8)
    }
    let iim = dataset(5, "Title") + dataset(55, date) + dataset(60, time)
    let resource =
      Array("8BIM".utf8) + [0x04, 0x04, 0, 0] + [0, 0, 0, UInt8(iim.count)] + iim
      + (iim.count % 2 == 1 ? [0] : [])
    return (0xED, Array("Photoshop 3.0\0".utf8) + resource)
  }

  @Test func aJPEGDatedOnlyInXMPOrIPTC() async throws {
    let noDate = ExifWriter(dateTaken: nil)
    let xmpOnly = Self.jpeg(
      exif: noDate, segments: [Self.xmpSegment("photoshop:DateCreated", "2018-03-04T05:06")])
    #expect(
      try await Self.read(xmpOnly, as: "x.jpg")?.exif?.taken?.description == "2018-03-04 05:06")
    let iptcOnly = Self.jpeg(
      exif: noDate, segments: [Self.iptcSegment(date: "20170809", time: "101112+0200")])
    let header = try await Self.read(iptcOnly, as: "i.jpg")
    #expect(header?.exif?.taken?.description == "2017-08-09 10:11")
    #expect(header?.exif?.model == "Pixel 8")
  }

  @Test func anXMPSegmentWhoseHeaderAWriterMangledIsStillRead() {
    let packet = Self.xmp("2015-01-22T00:00:00 +00:00", property: "photoshop:DateCreated")
    let mangled = Self.jpeg(
      exif: ExifWriter(dateTaken: nil),
      segments: [(0xE1, Array("XMP\0://ns.adobe.com/xap/1.0/\0".utf8) + packet)])
    #expect(EmbeddedMetadata.facts(mangled)?.taken?.description == "2015-01-22 00:00")
    // The extended-XMP segment names another namespace; a namespace further in is no header.
    for header in ["http://ns.adobe.com/xmp/extension/\0", String(repeating: " ", count: 40)] {
      let other = Self.jpeg(
        exif: ExifWriter(dateTaken: nil),
        segments: [(0xE1, Array((header + "ns.adobe.com/xap/1.0/\0").utf8) + packet)])
      #expect(EmbeddedMetadata.facts(other)?.taken == nil, "\(header)")
    }
  }

  @Test func exifBeatsXMPWhichBeatsIPTC() throws {
    let all = Self.jpeg(
      exif: Self.exif,
      segments: [
        Self.xmpSegment("xmp:CreateDate", "2018-03-04T05:06:07"),
        Self.iptcSegment(date: "20170809", time: "101112"),
      ])
    #expect(EmbeddedMetadata.facts(all)?.taken?.description == "2023-07-14 09:15")
    let noExifDate = Self.jpeg(
      exif: ExifWriter(dateTaken: nil),
      segments: [
        Self.iptcSegment(date: "20170809", time: "101112"),
        Self.xmpSegment("xmp:CreateDate", "2018-03-04T05:06:07"),
      ])
    #expect(EmbeddedMetadata.facts(noExifDate)?.taken?.description == "2018-03-04 05:06")
  }

  // MARK: XMP and IPTC values

  @Test func xmpPropertiesAsAttributesOrElementsInOrderOfPreference() {
    let packet = Array(
      """
      <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
      <rdf:Description \(XMPNamespaces.declarations) xmp:CreateDate='2001-01-01T00:00:00Z'>
        <photoshop:DateCreated>2002-02-02T02:02:02.123-05:00</photoshop:DateCreated>
      </rdf:Description></rdf:RDF>
      """.utf8)
    #expect(XMPDates.taken(packet)?.description == "2002-02-02 02:02")
    #expect(XMPDates.taken(Self.xmp("2024-02-30T00:00:00")) == nil)  // no 30 February
    #expect(XMPDates.taken(Self.xmp("1700-01-01T00:00:00")) == nil)  // the reader's years
    #expect(XMPDates.taken(Self.xmp("2024:05:01 14:30:00")) == nil)  // not ISO 8601
    #expect(XMPDates.taken(Self.xmp("2024")) == nil)
    #expect(XMPDates.taken(Self.xmp("2024-05-01T14:30")) != nil)
  }

  /// As Photoshop CS3 (`xap:`) and Lightroom (minutes and a zone) wrote them; both were
  /// undated before, though exiftool dates them.
  @Test func xmpsOldXapPrefixAndMinutesBeforeAZoneAreRead() {
    let xap = Self.xmp("2005-09-07T15:07:40-07:00", property: "xap:CreateDate")
    #expect(XMPDates.taken(xap)?.descriptionWithSeconds == "2005-09-07 15:07:40")
    #expect(XMPDates.taken(Self.xmp("2011-06-14T15:47+02:00"))?.description == "2011-06-14 15:47")
    #expect(XMPDates.taken(Self.xmp("2011-06-14T15:47Z"))?.description == "2011-06-14 15:47")
    #expect(XMPDates.taken(Self.xmp("2011-06-14T15:47:5")) == nil)
    #expect(XMPDates.taken(Self.xmp("2011-06-14T15:4")) == nil)
    #expect(XMPDates.taken(Self.xmp("2011-06-14T15:47.5")) == nil)
  }

  @Test func aPacketOverItsLimitOrUnterminatedIsNotRead() {
    let padding = [UInt8](repeating: 0x20, count: XMPDates.maxPacketBytes)
    #expect(XMPDates.taken(padding + Self.xmp("2024-05-01T14:30:00")) == nil)
    let unterminated =
      Array("<exif:DateTimeOriginal>".utf8) + [UInt8](repeating: 0x32, count: 1 << 20)
    #expect(XMPDates.taken(unterminated) == nil)
  }

  @Test func hostileIPTCAndResourcesReadAsNoDate() {
    #expect(IPTCDates.taken([0x1C, 2, 55, 0xFF, 0xFF] + Array("20240501".utf8)) == nil)
    #expect(IPTCDates.taken([0x1C, 2, 55, 0, 8] + Array("20241301".utf8)) == nil)
    #expect(
      IPTCDates.taken([0x1C, 2, 55, 0, 8] + Array("20240501".utf8))?.description
        == "2024-05-01 00:00")
    let forged = Array("8BIM".utf8) + [0x04, 0x04, 0xFF] + [UInt8](repeating: 0xFF, count: 9)
    #expect(JPEGMetadataSegments.iptc(inResources: forged[...]) == nil)
  }

  @Test func garbageInEachContainerGivesNoFactsNeverATrap() {
    var generator = SystemRandomNumberGenerator()
    let heads: [[UInt8]] = [
      [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], Array("RIFF\0\0\0\0WEBPVP8X".utf8),
      JXLBoxes.signature, [0xFF, 0xD8],
    ]
    for head in heads {
      for length in [0, 1, 7, 8, 13, 100, 5_000] {
        let bytes = head + (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
        _ = PhotoHeader(bytes: bytes)
        _ = PNGChunks.tailMetadata(bytes)
      }
    }
  }
}
