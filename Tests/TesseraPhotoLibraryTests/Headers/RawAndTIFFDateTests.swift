import TesseraPhotoFormats
import TesseraTestSupport
import TesseraUtilities
import Testing

@testable import TesseraPhotoFormats
@testable import TesseraPhotoLibrary

/// Dates exiftool finds and the header reader did not: a TIFF's XMP and IPTC tags, a date in
/// IFD0 (TIFF/EP), the RAW variants of TIFF's magic number, and the RAF, MRW and CR3
/// containers, each built here byte by byte as the camera lays it out. Forged offsets and
/// sizes read as no date, never a trap.
@Suite(.timeLimit(.minutes(1))) struct RawAndTIFFDateTests {
  typealias TIFF = RawFixtures.TIFF
  typealias Entry = RawFixtures.Entry

  static func ascii(_ text: String) -> [UInt8] { Array(text.utf8) + [0] }

  static func xmp(_ value: String) -> [UInt8] {
    Array(
      """
      <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description \
      \(XMPNamespaces.declarations) exif:DateTimeOriginal="\(value)"/></rdf:RDF>
      """.utf8)
  }

  /// A TIFF whose IFD0 holds `entries` made by `make` from the offsets of the data it appended.
  static func tiff(
    bigEndian: Bool = false, magic: Int = 42, _ make: (inout TIFF) -> [Entry]
  ) -> [UInt8] {
    var tiff = TIFF(bigEndian: bigEndian, magic: magic)
    let entries = make(&tiff)
    tiff.setFirstIFD(tiff.ifd(entries))
    return tiff.bytes
  }

  // MARK: TIFF

  @Test func aTIFFsXMPTagGivesTheDateAndSoDoesItsIPTCWrittenAsLongs() {
    let packet = Self.xmp("2010-09-30T16:06:06-07:00")
    let withXMP = Self.tiff { tiff in
      [Entry(tag: 700, type: 1, count: packet.count, value: tiff.append(packet))]
    }
    #expect(
      EmbeddedMetadata.facts(withXMP)?.taken?.descriptionWithSeconds == "2010-09-30 16:06:06")
    var iim: [UInt8] = [0x1C, 2, 55, 0, 8] + Array("20170809".utf8)
    iim += [0x1C, 2, 60, 0, 6] + Array("101112".utf8) + [0]  // padded to whole LONGs
    let withIPTC = Self.tiff(bigEndian: true) { tiff in
      [Entry(tag: 33_723, type: 4, count: iim.count / 4, value: tiff.append(iim))]
    }
    #expect(
      EmbeddedMetadata.facts(withIPTC)?.taken?.descriptionWithSeconds == "2017-08-09 10:11:12")
  }

  @Test func exifStillBeatsATIFFsXMP() {
    let packet = Self.xmp("2010-09-30T16:06:06")
    let date = Self.ascii("2023:07:14 09:15:30")
    let both = Self.tiff { tiff in
      let dateAt = tiff.append(date)
      let exif = tiff.ifd([Entry(tag: 0x9003, type: 2, count: date.count, value: dateAt)])
      return [
        Entry(tag: 700, type: 7, count: packet.count, value: tiff.append(packet)),
        .long(0x8769, exif),
      ]
    }
    #expect(EmbeddedMetadata.facts(both)?.taken?.descriptionWithSeconds == "2023-07-14 09:15:30")
  }

  /// The packet is read to its own end; a packet cut short is no XML and tells no date.
  @Test func aTIFFsXMPEntryThatClaimsMoreIsReadToThePacketsEnd() {
    let packet = Self.xmp("2010-09-30T16:06:06")
    let file = Self.tiff { tiff in
      // The entry claims a megabyte more than there is.
      [Entry(tag: 700, type: 7, count: packet.count + (1 << 20), value: tiff.append(packet))]
    }
    #expect(EmbeddedMetadata.facts(file)?.taken != nil)
    let cut = Self.tiff { tiff in
      let half = Array(packet.prefix(packet.count - 12))
      return [Entry(tag: 700, type: 7, count: half.count, value: tiff.append(half))]
    }
    #expect(EmbeddedMetadata.facts(cut)?.taken == nil)
    for forged in [
      Entry(tag: 700, type: 7, count: 100, value: 1 << 30),  // past the end
      Entry(tag: 700, type: 4, count: Int(UInt32.max), value: 8),  // count × 4 past 2^32
      Entry(tag: 33_723, type: 7, count: 1 << 20, value: 8),  // IPTC must be whole
      Entry(tag: 700, type: 2, count: 100, value: 8),  // ASCII is no XMP type
    ] {
      #expect(EmbeddedMetadata.facts(Self.tiff { _ in [forged] })?.taken == nil)
    }
  }

  @Test func aDateTakenInIFD0IsRead() {
    let original = Self.ascii("2004:06:09 16:02:35")
    let digitized = Self.ascii("2004:06:09 16:02:36")
    let file = Self.tiff(bigEndian: true) { tiff in
      let digitizedAt = tiff.append(digitized)
      let exif = tiff.ifd([Entry(tag: 0x9004, type: 2, count: 20, value: digitizedAt)])
      return [
        Entry(tag: 0x9003, type: 2, count: 20, value: tiff.append(original)), .long(0x8769, exif),
      ]
    }
    // The original in IFD0 beats the Exif IFD's digitized: it is the moment taken.
    #expect(ExifReader.facts(file)?.taken?.descriptionWithSeconds == "2004-06-09 16:02:35")
  }

  @Test(arguments: [(0x55, "RW2"), (0x4F52, "ORF RO"), (0x5352, "ORF RS"), (43, "no TIFF")])
  func rawMagicNumbersReadAsTIFF(magic: Int, name: String) {
    var file = ExifWriter(model: "DMC-G1", orientation: 1, dateTaken: "2008:08:06 15:21:56").tiff
    file.replaceSubrange(2..<4, with: [UInt8(magic & 0xFF), UInt8(magic >> 8)])
    let taken = ExifReader.facts(file)?.taken?.descriptionWithSeconds
    #expect(taken == (magic == 43 ? nil : "2008-08-06 15:21:56"), "\(name)")
  }

  // MARK: RAW containers

  static let camera = ExifWriter(model: "X-T5", orientation: 3, dateTaken: "2021:03:04 05:06:07")

  /// A RAF: the magic, the camera's name, the embedded JPEG's offset and length at 84 and 88.
  static func raf(jpegAt: Int = 100) -> [UInt8] {
    let picture = camera.jpeg(width: 32, height: 24)
    var header = Array("FUJIFILMCCD-RAW 0201FF129502X-T5".utf8)
    header += [UInt8](repeating: 0, count: 84 - header.count)
    header += RawFixtures.be32(jpegAt) + RawFixtures.be32(picture.count)
    header += [UInt8](repeating: 0, count: 100 - header.count)
    return header + picture
  }

  /// An MRW: `\0MRM`, a PRD block, the TTW block's TIFF, a block length of `ttwLength`.
  static func mrw(ttwLength: Int? = nil) -> [UInt8] {
    var exif = camera
    exif.bigEndian = true
    let prd = Array("\0PRD".utf8) + RawFixtures.be32(16) + [UInt8](repeating: 0, count: 16)
    let ttw = Array("\0TTW".utf8) + RawFixtures.be32(ttwLength ?? exif.tiff.count) + exif.tiff
    return Array("\0MRM".utf8) + RawFixtures.be32(prd.count + ttw.count) + prd + ttw
  }

  /// A CR3: ftyp `crx `, moov's Canon uuid box with CMT1 (the camera) and CMT2 (the Exif IFD,
  /// its date in the first IFD).
  static func cr3() -> [UInt8] {
    let cmt1 = ExifWriter(model: "Canon EOS R5", orientation: 8, dateTaken: nil).tiff
    let date = ascii("2018:02:21 12:08:56")
    let cmt2 = Self.tiff { tiff in
      [Entry(tag: 0x9003, type: 2, count: date.count, value: tiff.append(date))]
    }
    let box = RawFixtures.box
    let canon = box("uuid", RawCR3.canonUUID + box("CMT1", cmt1) + box("CMT2", cmt2))
    let ftyp = box("ftyp", Array("crx ".utf8) + [0, 0, 0, 1] + Array("crx isom".utf8))
    return ftyp + box("moov", box("mvhd", [UInt8](repeating: 0, count: 16)) + canon)
      + box("mdat", [UInt8](repeating: 0xAA, count: 64))
  }

  @Test func rafMRWAndCR3HaveTheirDateAndCameraRead() {
    let raf = EmbeddedMetadata.facts(Self.raf())
    #expect(raf == ExifFacts(taken: WallClockTime(exif: "2021:03:04 05:06:07"), model: "X-T5"))
    let mrw = EmbeddedMetadata.facts(Self.mrw())
    #expect(mrw == ExifFacts(taken: WallClockTime(exif: "2021:03:04 05:06:07"), model: "X-T5"))
    let cr3 = EmbeddedMetadata.facts(Self.cr3())
    #expect(
      cr3 == ExifFacts(taken: WallClockTime(exif: "2018:02:21 12:08:56"), model: "Canon EOS R5"))
    #expect(PhotoHeader(bytes: Self.cr3()).exif?.taken != nil, "the reader's path")
  }

  /// A CRW keeps its date and camera in CIFF records listed in a table at its end, past any
  /// first read: the heaps are walked through reads at their tables. Before, no CRW was dated.
  @Test(arguments: [0, 400_000]) func aCRWsCaptureTimeAndModelAreRead(padding: Int) async throws {
    // 2002-03-04 05:06:07 on the camera's clock.
    let file = RawFixtures.crw(
      captureTime: 1_015_218_367, makeModel: "Canon\0Canon EOS D30", padding: padding)
    let header = try #require(try await ContainerDateTests.read(file, as: "CRW_0001.CRW"))
    #expect(header.exif?.taken?.descriptionWithSeconds == "2002-03-04 05:06:07")
    #expect(header.exif?.model == "Canon EOS D30")
    // No record, a zero time, a model that is not text: nothing made up.
    #expect(
      try await ContainerDateTests.read(RawFixtures.crw(captureTime: 0), as: "b.crw")?.exif == nil)
    let binary = RawFixtures.crw(makeModel: "Canon\0\u{7}\u{1B}[2J")
    #expect(try await ContainerDateTests.read(binary, as: "c.crw")?.exif == nil)
  }

  @Test func forgedRAWOffsetsAndSizesReadAsNoDate() {
    #expect(RawContainerExif.facts(Self.raf(jpegAt: 1 << 31)) == nil)
    #expect(RawContainerExif.facts(Self.raf(jpegAt: 12)) == nil)
    #expect(RawContainerExif.facts(Array(Self.raf().prefix(90))) == nil)
    // A TTW block longer than the bytes read is read as far as they go.
    #expect(RawContainerExif.facts(Self.mrw(ttwLength: 1 << 31))?.taken != nil)
    let cr3 = Self.cr3()
    for cut in [12, 40, 80, cr3.count - 100] {
      _ = RawContainerExif.facts(Array(cr3.prefix(cut)))
    }
    var generator = SystemRandomNumberGenerator()
    for head in [Array(Self.raf().prefix(92)), Array(Self.mrw().prefix(8)), Array(cr3.prefix(24))] {
      for length in [0, 1, 8, 100, 5_000] {
        let bytes = head + (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
        _ = RawContainerExif.facts(bytes)
        _ = PhotoHeader(bytes: bytes)
      }
    }
  }
}
