import TesseraGeometry
import TesseraImageSynthesis
import Testing

@testable import TesseraPhotoFormats

/// A TIFF's size is its first full-resolution IFD's: a reduced-resolution IFD0 (a scanner's
/// preview) is passed over, a chain that loops or lies gives none, never a trap.
@Suite(.timeLimit(.minutes(1))) struct TIFFImageSizeTests {
  typealias TIFF = RawFixtures.TIFF
  typealias Entry = RawFixtures.Entry

  static func size(_ bytes: [UInt8]) -> PixelSize? {
    ExifStructure(photo: bytes).flatMap(TIFFImageSize.pixelSize(in:))
  }

  @Test(arguments: [false, true]) func ifd0sWidthAndLengthAreTheSize(bigEndian: Bool) {
    var tiff = TIFF(bigEndian: bigEndian)
    // SHORT width, LONG length: both types are allowed for either tag.
    tiff.setFirstIFD(tiff.ifd([.short(256, 4_000), .long(257, 3_000)]))
    #expect(Self.size(tiff.bytes) == PixelSize(width: 4_000, height: 3_000))
    #expect(ImageHeader.pixelSize(tiff.bytes) == PixelSize(width: 4_000, height: 3_000))
  }

  @Test func aReducedResolutionIFDIsPassedOver() {
    var tiff = TIFF()
    let full = tiff.ifd([.long(254, 0), .short(256, 6_000), .short(257, 4_000)])
    let preview = tiff.ifd([.long(254, 1), .short(256, 160), .short(257, 120)], next: full)
    tiff.setFirstIFD(preview)
    #expect(Self.size(tiff.bytes) == PixelSize(width: 6_000, height: 4_000))
  }

  @Test func aLoopingChainOrNoFullImageGivesNoSize() {
    var tiff = TIFF()
    let first = tiff.ifd([.long(254, 1), .short(256, 160), .short(257, 120)])
    let second = tiff.ifd([.long(254, 1), .short(256, 80), .short(257, 60)], next: first)
    tiff.link(first, to: second)
    tiff.setFirstIFD(first)
    #expect(Self.size(tiff.bytes) == nil)
  }

  @Test(arguments: [(0, 100), (100, 0), (1_000_000, 1_000_000), (-1, 10)])
  func sizesOutsideTheLimitsAreUnknown(width: Int, height: Int) {
    var tiff = TIFF()
    tiff.setFirstIFD(tiff.ifd([.long(256, width & 0xFFFF_FFFF), .long(257, height)]))
    #expect(Self.size(tiff.bytes) == nil)
  }

  @Test func anIFDPastTheBytesGivesNoSize() {
    var tiff = TIFF()
    tiff.setFirstIFD(1_000_000)
    #expect(Self.size(tiff.bytes) == nil)
  }
}
