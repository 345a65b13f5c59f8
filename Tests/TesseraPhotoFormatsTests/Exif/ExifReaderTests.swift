import Foundation
import TesseraTestSupport
import TesseraUtilities
import Testing

@testable import TesseraPhotoFormats

@Suite struct ExifReaderTests {
  @Test(arguments: [false, true])
  func readsDateModelAndOrientationInBothByteOrders(bigEndian: Bool) throws {
    let fixture = ExifWriter(bigEndian: bigEndian)
    let facts = try #require(ExifReader.facts(fixture.jpeg()))
    #expect(facts.model == "Pixel 8")
    #expect(facts.orientation == 6)
    #expect(facts.taken?.description == "2024-05-01 14:30")
    #expect(facts.taken?.dayTitle == "1 May 2024")
    #expect(facts.taken?.monthTitle == "May 2024")
  }

  @Test func aTIFFFileIsReadFromItsOwnHeader() throws {
    let facts = try #require(ExifReader.facts(ExifWriter(bigEndian: true, orientation: 8).tiff))
    #expect(facts.orientation == 8)
    #expect(facts.model == "Pixel 8")
  }

  /// A model of four bytes or fewer (NUL included) is stored in the entry itself, as TIFF
  /// says; read from there in both byte orders.
  @Test(arguments: [false, true])
  func aShortModelIsReadFromItsEntry(bigEndian: Bool) throws {
    for model in ["Old", "EOS", "A"] {
      let facts = try #require(
        ExifReader.facts(ExifWriter(bigEndian: bigEndian, model: model).jpeg()))
      #expect(facts.model == model)
    }
  }

  @Test func digitizedStandsInForAMissingOriginal() throws {
    let fixture = ExifWriter(dateTaken: nil, digitized: "2020-02-29 08:05:09")
    let facts = try #require(ExifReader.facts(fixture.jpeg()))
    #expect(facts.taken?.description == "2020-02-29 08:05")
  }

  @Test func noExifIsNil() {
    #expect(
      ExifReader.facts(ExifWriter(model: nil, orientation: nil, dateTaken: nil).jpeg()) == nil)
    #expect(ExifReader.facts([0x89, 0x50, 0x4E, 0x47]) == nil)
    #expect(ExifReader.facts([]) == nil)
  }

  @Test(arguments: [
    "0000:00:00 00:00:00", "2023:02:29 10:00:00", "2024:13:01 10:00:00", "2024:04:31 10:00:00",
    "2024:05:01 24:00:00", "2024/05/01 10:00:00", "20x4:05:01 10:00:00", "2024:05:01",
  ])
  func impossibleDatesAreNoDate(text: String) throws {
    #expect(WallClockTime(exif: text) == nil)
    let facts = try #require(ExifReader.facts(ExifWriter(dateTaken: text).jpeg()))
    #expect(facts.taken == nil)
    #expect(facts.model == "Pixel 8")
  }

  @Test func anOrientationOutsideOneToEightIsIgnored() throws {
    let facts = try #require(ExifReader.facts(ExifWriter(orientation: 9).jpeg()))
    #expect(facts.orientation == nil)
    #expect(facts.swapsSides == false)
  }

  @Test func unprintableModelIsRefused() throws {
    let facts = try #require(ExifReader.facts(ExifWriter(model: "Cam\u{1B}[2J").jpeg()))
    #expect(facts.model == nil)
  }

  // MARK: hostile offsets and counts

  /// Offsets of IFD0's entries in the fixture's TIFF (model, orientation, pointer).
  static let pointerEntry = 8 + 2 + 2 * 12

  func forging(_ tiff: [UInt8], at offset: Int, _ bytes: [UInt8]) -> [UInt8] {
    var forged = tiff
    forged.replaceSubrange(offset..<offset + bytes.count, with: bytes)
    return forged
  }

  @Test(
    arguments: [
      [0xFF, 0xFF, 0xFF, 0xFF], [0xF0, 0xFF, 0xFF, 0xFF], [0x00, 0x00, 0x00, 0x80],
      [0x00, 0x00, 0x00, 0x00], [0x08, 0x00, 0x00, 0x00],
    ] as [[UInt8]])
  func aForgedExifPointerEndsTheReadNotTheProcess(pointer: [UInt8]) throws {
    let fixture = ExifWriter()
    let tiff = forging(fixture.tiff, at: Self.pointerEntry + 8, pointer)
    let facts = try #require(ExifReader.facts(fixture.jpeg(tiff: tiff)))
    #expect(facts.taken == nil)
    #expect(facts.model == "Pixel 8")
  }

  @Test func aForgedEntryCountOrIFDOffsetIsRefused() {
    let fixture = ExifWriter()
    let hugeCount = forging(fixture.tiff, at: 8, [0xFF, 0xFF])
    #expect(ExifReader.facts(fixture.jpeg(tiff: hugeCount)) == nil)
    for offset: [UInt8] in [[0xFF, 0xFF, 0xFF, 0xFF], [0x00, 0x00, 0x00, 0x00], [0x07, 0, 0, 0]] {
      let forged = forging(fixture.tiff, at: 4, offset)
      #expect(ExifReader.facts(fixture.jpeg(tiff: forged)) == nil)
    }
  }

  @Test func aForgedTextCountOrOffsetIsRefused() throws {
    let fixture = ExifWriter()
    // The model entry's count, then its offset.
    for (offset, bytes): (Int, [UInt8]) in [
      (10 + 4, [0xFF, 0xFF, 0xFF, 0xFF]), (10 + 4, [0x00, 0x00, 0x00, 0x00]),
      (10 + 8, [0xFC, 0xFF, 0xFF, 0xFF]), (10 + 8, [0xFF, 0xFF, 0xFF, 0x7F]),
    ] {
      let forged = forging(fixture.tiff, at: offset, bytes)
      let facts = try #require(ExifReader.facts(fixture.jpeg(tiff: forged)))
      #expect(facts.model == nil)
      #expect(facts.orientation == 6)
    }
  }

  @Test func everyTruncationOfAGoodHeaderIsSafe() {
    let jpeg = ExifWriter().jpeg()
    for length in 0...jpeg.count {
      let facts = ExifReader.facts(Array(jpeg.prefix(length)))
      // Until the whole APP1 segment is there, nothing is read from it.
      if length < 6 + 6 + ExifWriter().tiff.count { #expect(facts == nil) }
    }
    #expect(ExifReader.facts(jpeg)?.orientation == 6)
  }

  @Test func aSegmentLengthPastTheEndOrBelowTwoIsRefused() {
    var jpeg = ExifWriter().jpeg()
    jpeg[4] = 0xFF
    jpeg[5] = 0xFF
    #expect(ExifReader.facts(jpeg) == nil)
    jpeg[4] = 0
    jpeg[5] = 1
    #expect(ExifReader.facts(jpeg) == nil)
  }

  @Test func anExifPointerToIFD0ItselfIsNotFollowedAgain() throws {
    let fixture = ExifWriter()
    let forged = forging(fixture.tiff, at: Self.pointerEntry + 8, [0x08, 0, 0, 0])
    let facts = try #require(ExifReader.facts(fixture.jpeg(tiff: forged)))
    #expect(facts.taken == nil)
    #expect(facts.orientation == 6)
  }

  /// The in-camera rating (0x4746), as exiftool writes it the way a camera does; a value off
  /// the 0…5 scale is none.
  @Test func theRatingIsReadAsACameraWritesIt() async throws {
    try await TemporaryFolder.with(prefix: "tessera-exif") { folder in
      let path = folder.appendingPathComponent("rated.jpg").path
      try Data(ExifWriter().jpeg()).write(to: URL(fileURLWithPath: path))
      try ExifTool.run(["-q", "-overwrite_original", "-IFD0:Rating=4", path])
      let rated = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
      #expect(ExifReader.facts(rated)?.rating == 4)
      try ExifTool.run(["-q", "-overwrite_original", "-n", "-IFD0:Rating=9", path])
      let forged = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
      let facts = try #require(ExifReader.facts(forged))
      #expect(facts.rating == nil)
      #expect(facts.model != nil, "the other facts are still read")
    }
    #expect(ExifReader.facts(ExifWriter().jpeg())?.rating == nil)
  }
}
