import CVipsShim
import Foundation
import TesseraPhotoFormats
import TesseraTestSupport
import Testing

@testable import TesseraImages

/// A PNG's eXIf orientation turns its picture wherever the chunk is: before the pixels libvips
/// reads and applies it; after them (PNG 1.5 allows it, and exiftool and browsers turn such a
/// file) libvips does not see it and the decoder applies it itself. Both decode the same.
@Suite(.timeLimit(.minutes(1))) struct PNGOrientationDecodeTests {
  let decoder = ImageDecoder(maxPixels: 100_000_000)

  /// A 64×32 PNG whose left half is red and right half blue, with an eXIf of `orientation`
  /// after IHDR (`early`) or before IEND.
  static func png(orientation: Int, early: Bool) throws -> Data {
    var pixels: [UInt8] = []
    for _ in 0..<32 {
      for x in 0..<64 { pixels += x < 32 ? [255, 0, 0, 255] : [0, 0, 255, 255] }
    }
    let file = [UInt8](try TestImages.encode(pixels, width: 64, height: 32, as: ".png"))
    let exif = CraftedPNG.chunk("eXIf", ExifWriter(orientation: orientation).tiff)
    let afterHeader = 8 + 25
    let spliced =
      early
      ? Array(file[..<afterHeader]) + exif + Array(file[afterHeader...])
      : Array(file.dropLast(12)) + exif + Array(file.suffix(12))
    return Data(spliced)
  }

  /// The colour at (x, y) of `image`, as (red, blue).
  static func colour(_ image: Image, _ x: Int, _ y: Int) -> (UInt8, UInt8) {
    let at = (y * image.width + x) * 4
    return (image.pixels[at], image.pixels[at + 2])
  }

  @Test(arguments: [false, true]) func aQuarterTurnIsAppliedWhereverTheChunkIs(early: Bool) throws {
    let png = try Self.png(orientation: 6, early: early)
    #expect(PNGLateOrientation.orientation(png) == (early ? nil : 6))
    let header = try decoder.header(of: png, source: .localFolder)
    #expect(header == PixelSize(width: 32, height: 64))
    for target in [PixelSize(width: 16, height: 32), nil] {
      let image = try decoder.decode(png, targetSize: target, contentMode: .aspectFit)
      // 6: turned a quarter clockwise, the left (red) half is on top.
      #expect(image.width * 2 == image.height, "\(image.width)x\(image.height)")
      #expect(Self.colour(image, image.width / 2, 2) == (255, 0))
      #expect(Self.colour(image, image.width / 2, image.height - 3) == (0, 255))
      #expect(image.originalSize == PixelSize(width: 32, height: 64))
    }
  }

  @Test(arguments: [2, 3, 4, 5, 7, 8]) func lateAndEarlyDecodeTheSame(orientation: Int) throws {
    let early = try decoder.decode(
      try Self.png(orientation: orientation, early: true), targetSize: nil,
      contentMode: .aspectFit)
    let late = try decoder.decode(
      try Self.png(orientation: orientation, early: false), targetSize: nil,
      contentMode: .aspectFit)
    #expect(late.size == early.size)
    #expect(late.pixels == early.pixels, "orientation \(orientation)")
  }

  @Test func anUprightOrMissingChunkLeavesThePictureAsStored() throws {
    #expect(PNGLateOrientation.orientation(try Self.png(orientation: 1, early: false)) == nil)
    let plain = TestImages.gradient(width: 20, height: 10, as: ".png")
    #expect(PNGLateOrientation.orientation(plain) == nil)
    #expect(try decoder.header(of: plain) == PixelSize(width: 20, height: 10))
  }
}
