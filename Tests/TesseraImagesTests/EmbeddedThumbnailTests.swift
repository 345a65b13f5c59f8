import Foundation
import TesseraPhotoFormats
import TesseraTestSupport
import TesseraUtilities
import Testing

@testable import TesseraImages

/// A local photo's EXIF thumbnail stands in for the original when it covers the box: the same
/// picture, turned upright as the photo is, in a fraction of the decode. The original's
/// background is mid grey and the thumbnail's dark, so every test can tell which was decoded.
@Suite(.timeLimit(.minutes(1))) struct EmbeddedThumbnailTests {
  /// The upright picture of `width`×`height`: red block top left, blue top right.
  private static func upright(
    _ x: Int, _ y: Int, _ width: Int, _ height: Int, _ grey: UInt8
  )
    -> [UInt8]
  {
    if y < height / 4 && x < width / 4 { return [230, 20, 20, 255] }
    if y < height / 4 && x >= width * 3 / 4 { return [20, 20, 230, 255] }
    return [grey, grey, grey, 255]
  }

  /// The JPEG bytes a camera stores for that picture under `orientation` (5…8 store it
  /// sideways).
  private static func stored(
    _ orientation: Int, width: Int, height: Int, grey: UInt8
  ) throws -> [UInt8] {
    let swaps = orientation >= 5
    let (rawWidth, rawHeight) = swaps ? (height, width) : (width, height)
    var pixels: [UInt8] = []
    for y in 0..<rawHeight {
      for x in 0..<rawWidth {
        let (ux, uy) = shownPosition(orientation, x, y, rawWidth: rawWidth, rawHeight: rawHeight)
        pixels += upright(ux, uy, width, height, grey)
      }
    }
    return [UInt8](
      try TestImages.encode(pixels, width: rawWidth, height: rawHeight, as: ".jpg[Q=95]"))
  }

  /// A 64×48 photo (grey 128) under `orientation` whose EXIF embeds `thumbnail`, or by default
  /// the same picture at 32×24 (grey 40).
  private static func photo(_ orientation: Int, thumbnail: [UInt8]? = nil) throws -> Data {
    let main = try stored(orientation, width: 64, height: 48, grey: 128)
    let small = try thumbnail ?? stored(orientation, width: 32, height: 24, grey: 40)
    let exif = ExifWriter(
      model: nil, orientation: orientation, dateTaken: nil, thumbnail: small)
    return Data(exif.splicing(into: main))
  }

  private static func decode(
    _ data: Data, _ side: Int, source: ImageRequest.Source = .localFolder
  ) throws -> Image {
    try ImageDecoder(maxPixels: 1 << 26).decode(
      data, targetSize: PixelSize(width: side, height: side), contentMode: .aspectFit,
      source: source)
  }

  private static func grey(of image: Image) -> Int {
    Int(image.pixels[((image.height - 2) * image.width + image.width / 2) * 4])
  }

  @Test(arguments: 1...8)
  func theThumbnailStandsInForABoxItCoversTurnedUpright(_ orientation: Int) throws {
    let image = try Self.decode(try Self.photo(orientation), 32)
    #expect(image.size == PixelSize(width: 32, height: 24))
    #expect(image.originalSize == PixelSize(width: 64, height: 48))
    #expect(Self.grey(of: image) < 80, "the thumbnail's dark background")
    let topLeft = (0..<3).map { Int(image.pixels[(2 * 32 + 2) * 4 + $0]) }
    let topRight = (0..<3).map { Int(image.pixels[(2 * 32 + 29) * 4 + $0]) }
    #expect(topLeft[0] > 180 && topLeft[2] < 90, "red top left under \(orientation)")
    #expect(topRight[2] > 180 && topRight[0] < 90, "blue top right under \(orientation)")
  }

  @Test func aBoxLargerThanTheThumbnailDecodesTheOriginal() throws {
    let image = try Self.decode(try Self.photo(6), 64)
    #expect(image.size == PixelSize(width: 64, height: 48))
    #expect(abs(Self.grey(of: image) - 128) < 20)
  }

  @Test func aThumbnailOfAnotherShapeIsNotUsed() throws {
    // Letterboxed to a square, as some cameras pad a wide photo's thumbnail.
    let square = try Self.stored(1, width: 32, height: 32, grey: 40)
    let image = try Self.decode(try Self.photo(1, thumbnail: square), 32)
    #expect(abs(Self.grey(of: image) - 128) < 20)
  }

  @Test func networkBytesNeverTakeThisPath() throws {
    let image = try Self.decode(try Self.photo(1), 32, source: .network)
    #expect(abs(Self.grey(of: image) - 128) < 20)
  }

  /// IFD1's offset, pointer entry and length entry in a little-endian fixture's TIFF bytes.
  private static func ifd1(_ tiff: [UInt8]) -> Int {
    let count = Int(tiff[8]) | Int(tiff[9]) << 8
    let pointer = 10 + count * 12
    return (0..<4).reduce(0) { $0 | Int(tiff[pointer + $1]) << (8 * $1) }
  }

  private static func patched(_ tiff: [UInt8], at offset: Int, to value: Int) -> [UInt8] {
    var tiff = tiff
    for index in 0..<4 { tiff[offset + index] = UInt8(value >> (8 * index) & 0xFF) }
    return tiff
  }

  @Test func forgedOffsetsAndLengthsAreRefused() throws {
    let small = try Self.stored(1, width: 32, height: 24, grey: 40)
    let fixture = ExifWriter(model: nil, orientation: 1, dateTaken: nil, thumbnail: small)
    let tiff = fixture.tiff
    let ifd1 = Self.ifd1(tiff)
    let offsetValue = ifd1 + 2 + 12 + 8
    let lengthValue = ifd1 + 2 + 24 + 8
    let main = try Self.stored(1, width: 64, height: 48, grey: 128)
    func found(_ tiff: [UInt8]) -> EmbeddedThumbnail? {
      EmbeddedThumbnail(in: Data(fixture.jpeg(tiff: tiff)))
    }
    #expect(found(tiff)?.jpeg == Data(small))
    #expect(found(Self.patched(tiff, at: offsetValue, to: 0xFFFF_FFFF)) == nil)
    #expect(found(Self.patched(tiff, at: lengthValue, to: 0xFFFF_FFFF)) == nil)
    #expect(found(Self.patched(tiff, at: lengthValue, to: small.count + 1)) == nil)
    #expect(found(Self.patched(tiff, at: offsetValue, to: ifd1)) == nil, "not a JPEG there")
    // An IFD1 that points back at IFD0 is no thumbnail, and the photo still decodes.
    let looped = Self.patched(tiff, at: 10 + 1 * 12, to: 8)
    #expect(found(looped) == nil)
    let exif = Array("Exif".utf8) + [0, 0] + looped
    let length = exif.count + 2
    let photo = Data(
      Array(main.prefix(2)) + [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + exif
        + main.dropFirst(2))
    #expect(abs(Self.grey(of: try Self.decode(photo, 32)) - 128) < 20)
  }
}
