import Foundation
import TesseraTestSupport
import TesseraUtilities
import Testing

@testable import TesseraPhotoFormats
@testable import TesseraPhotoLibrary

/// HEIC and AVIF photos written by libvips: their date taken, camera and size read from the
/// header, as the folder walk reads them to order a phone's photos.
@Suite(.timeLimit(.minutes(1))) struct HEIFHeaderTests {
  @Test(arguments: HEIFPhotoFiles.formats)
  func aRealFileGivesItsDateCameraAndSize(format: String) throws {
    let file = try HEIFPhotoFiles.photo(width: 96, height: 64, format: format)
    let header = PhotoHeader(bytes: file)
    #expect(header.exif?.taken?.description == "2024-05-01 14:30")
    #expect(header.exif?.model == "Pixel 8")
    #expect(header.pixelSize == PixelSize(width: 96, height: 64))
    #expect(ImageHeader.pixelSize(file) == PixelSize(width: 96, height: 64))
    // libvips agrees on the size it will decode to.
    let libvips = try #require(TestImages.header(file))
    #expect(PixelSize(width: libvips.width, height: libvips.height) == header.pixelSize)
  }

  /// libheif turns a HEIF image by its own `irot`, and heifload drops EXIF's orientation: a
  /// HEIF photo whose EXIF says "turned a quarter" is shown as stored, never turned twice.
  @Test(arguments: HEIFPhotoFiles.formats)
  func exifOrientationDoesNotTurnAHEIFPhoto(format: String) throws {
    let file = try HEIFPhotoFiles.photo(width: 96, height: 64, format: format, orientation: 6)
    let heif = try #require(HEIFHeader(bytes: file))
    let range = try #require(heif.exif?.range(inFileOf: file.count, limit: 1 << 16))
    let tiff = try #require(HEIFHeader.tiff(inExifItem: Array(file[range])))
    #expect(ExifReader.facts(tiff)?.orientation == 6, "the file does say 6")
    let libvips = try #require(TestImages.header(file))
    #expect(libvips.width == 96 && libvips.height == 64)
    // The pipeline's thumbnail (which turns by EXIF orientation) shows it as stored too.
    let decoded = try #require(TestImages.decode(file, fitting: 200, 200))
    #expect(decoded.width == 96 && decoded.height == 64)
    let header = PhotoHeader(bytes: file)
    #expect(header.pixelSize == PixelSize(width: 96, height: 64))
    #expect(header.exif?.orientation == nil)
    #expect(header.exif?.swapsSides == false)
  }

  /// A phone stores the sensor's pixels and an `irot`: libheif turns them as it decodes, and
  /// the header's size is the turned one (a real file with an `irot` added, checked against
  /// libvips' header and decode).
  @Test(arguments: HEIFPhotoFiles.formats)
  func aRealFileWithAnIrotShowsTurned(format: String) throws {
    let stored = try HEIFPhotoFiles.photo(width: 96, height: 64, format: format)
    for (quarterTurns, shown) in [(1, (64, 96)), (2, (96, 64)), (3, (64, 96))] {
      let turned = try #require(HEIFPhotoFiles.turned(stored, quarterTurns: quarterTurns))
      let libvips = try #require(TestImages.header(turned), "libvips reads the turned file")
      #expect(libvips.width == shown.0 && libvips.height == shown.1)
      let decoded = try #require(TestImages.decode(turned, fitting: 200, 200))
      #expect(decoded.width == shown.0 && decoded.height == shown.1)
      let header = PhotoHeader(bytes: turned)
      #expect(header.pixelSize == PixelSize(width: shown.0, height: shown.1))
      #expect(header.exif?.model == "Pixel 8")
      #expect(header.exif?.taken?.description == "2024-05-01 14:30")
    }
  }

  /// The fuzz seeds are what they say: two libvips files and a forged one whose primary is
  /// an `iden` of a 640 × 480 image, turned a quarter and cropped to 470 × 630 (iloc v1 with
  /// 8-byte fields, ipma with 15-bit indices).
  @Test func theFuzzSeedsReadAsTheirNamesSay() throws {
    let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("../../../Fuzz/corpus/heif-header").standardized
    for (name, size) in [
      ("pixel-16x16.heic", PixelSize(width: 16, height: 16)),
      ("pixel-16x16.avif", PixelSize(width: 16, height: 16)),
      ("forged-iden-irot-clap.heic", PixelSize(width: 470, height: 630)),
    ] {
      let bytes = try [UInt8](Data(contentsOf: corpus.appendingPathComponent(name)))
      let header = PhotoHeader(bytes: bytes)
      #expect(header.pixelSize == size, "\(name)")
      #expect(header.exif?.model == "Pixel 8", "\(name)")
      #expect(header.exif?.taken?.description == "2024-05-01 14:30", "\(name)")
    }
  }

  /// A large photo's Exif item lies after its image data, past the header bytes: the reader
  /// reads it from the file too.
  @Test(arguments: HEIFPhotoFiles.formats)
  func anExifItemPastTheHeaderBytesIsReadFromTheFile(format: String) async throws {
    let file = try HEIFPhotoFiles.photo(width: 768, height: 512, format: format, noise: true)
    let heif = try #require(HEIFHeader(bytes: file))
    let exif = try #require(heif.exif)
    try #require(
      exif.offset > FeedLimits.maxPhotoHeaderBytes,
      "the Exif item should lie past \(FeedLimits.maxPhotoHeaderBytes) (file: \(file.count))")
    // The first bytes alone give the size, not the date.
    let prefix = PhotoHeader(bytes: Array(file.prefix(FeedLimits.maxPhotoHeaderBytes)))
    #expect(prefix.pixelSize == PixelSize(width: 768, height: 512))
    #expect(prefix.exif == nil)
    try await TemporaryFolder.with { folder in
      let path = folder.appendingPathComponent("phone.heic").path
      try Data(file).write(to: URL(fileURLWithPath: path))
      let header = try #require(LocalPhotoHeaderReader().header(ofFileAt: path))
      #expect(header.pixelSize == PixelSize(width: 768, height: 512))
      #expect(header.exif?.taken?.description == "2024-05-01 14:30")
      #expect(header.exif?.model == "Pixel 8")
    }
  }

  @Test func aFileThatEndsBeforeItsExifItemHasNoDate() async throws {
    let file = try HEIFPhotoFiles.photo(width: 768, height: 512, format: ".heic", noise: true)
    let exif = try #require(HEIFHeader(bytes: file)?.exif)
    try await TemporaryFolder.with { folder in
      let path = folder.appendingPathComponent("cut.heic").path
      try Data(file.prefix(exif.offset)).write(to: URL(fileURLWithPath: path))
      let header = try #require(LocalPhotoHeaderReader().header(ofFileAt: path))
      #expect(header.pixelSize == PixelSize(width: 768, height: 512))
      #expect(header.exif == nil)
    }
  }

  @Test func aSymbolicLinkToAHEIFPhotoIsNotRead() async throws {
    let file = try HEIFPhotoFiles.photo(width: 96, height: 64, format: ".heic")
    try await TemporaryFolder.with { folder in
      let real = folder.appendingPathComponent("real.heic")
      try Data(file).write(to: real)
      let link = folder.appendingPathComponent("link.heic")
      try FileManager.default.createSymbolicLink(at: link, withDestinationURL: real)
      #expect(LocalPhotoHeaderReader().header(ofFileAt: real.path)?.exif?.model == "Pixel 8")
      #expect(LocalPhotoHeaderReader().header(ofFileAt: link.path) == nil)
    }
  }

  // MARK: Forged layouts (what real files may hold that libvips does not write)

  @Test(arguments: [(1, true), (2, false), (3, true), (0, false)])
  func irotQuarterTurnsSwapTheSides(quarterTurns: Int, swaps: Bool) {
    var fixture = HEIFFixture()
    fixture.properties = [Box.ispe(4000, 3000), Box.irot(quarterTurns)]
    fixture.associations = [(1, [1, 2])]
    let size = PhotoHeader(bytes: fixture.bytes).pixelSize
    #expect(
      size == (swaps ? PixelSize(width: 3000, height: 4000) : PixelSize(width: 4000, height: 3000)))
  }

  @Test func aCleanApertureCropsInTheOrderItIsAssociated() {
    var fixture = HEIFFixture()
    fixture.properties = [Box.ispe(4000, 3000), Box.clap(width: 3990, height: 2990), Box.irot(1)]
    fixture.associations = [(1, [1, 2, 3])]
    #expect(PhotoHeader(bytes: fixture.bytes).pixelSize == PixelSize(width: 2990, height: 3990))
    fixture.associations = [(1, [1, 3, 2])]
    // Turned first, then cropped to 3990 × 2990 of the 3000 × 4000 turned image.
    #expect(PhotoHeader(bytes: fixture.bytes).pixelSize == PixelSize(width: 3000, height: 2990))
  }

  @Test func theExifItemDescribingThePrimaryIsTheOneRead() {
    var fixture = HEIFFixture()
    fixture.items = [(1, "hvc1"), (3, "Exif"), (2, "Exif")]
    fixture.references = [("cdsc", 3, [9]), ("cdsc", 2, [1])]
    let header = PhotoHeader(bytes: fixture.bytes)
    #expect(header.exif?.model == "Pixel 8")
    #expect(header.exif?.taken?.description == "2024-05-01 14:30")
    #expect(header.exif?.orientation == nil)
    #expect(header.pixelSize == PixelSize(width: 4000, height: 3000))
  }

  @Test func aLegacyExifItemWithAnExifMarkerIsRead() {
    var fixture = HEIFFixture()
    fixture.exifItem =
      Box.u32(0) + Array("Exif".utf8) + [0, 0] + ExifWriter(model: "Old Camera").tiff
    #expect(PhotoHeader(bytes: fixture.bytes).exif?.model == "Old Camera")
  }

  @Test func aDerivedPrimaryTakesItsSourcesSizeAndItsOwnTurn() {
    var fixture = HEIFFixture()
    fixture.items = [(1, "iden"), (5, "hvc1"), (2, "Exif")]
    fixture.properties = [Box.ispe(640, 480), Box.irot(1)]
    fixture.associations = [(1, [2]), (5, [1])]
    fixture.references = [("dimg", 1, [5]), ("cdsc", 2, [1])]
    #expect(PhotoHeader(bytes: fixture.bytes).pixelSize == PixelSize(width: 480, height: 640))
  }

  @Test func anAVIFBrandIsReadToo() {
    let fixture = HEIFFixture()
    let bytes = Box.ftyp("avif") + fixture.bytes.dropFirst(Box.ftyp().count)
    #expect(PhotoHeader(bytes: Array(bytes)).pixelSize == PixelSize(width: 4000, height: 3000))
  }
}
