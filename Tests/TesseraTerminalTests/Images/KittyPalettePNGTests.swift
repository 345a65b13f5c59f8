import Testing

@testable import TesseraTerminal

/// Over a slow link kitty's uploads are palette PNGs (``KittyPayloadFormat/palettePNG``): a
/// fraction of the lossless bytes, read back by libpng as a picture close to the tile, and
/// never for a tile with transparency.
@Suite struct KittyPalettePNGTests {
  @Test(arguments: [(grain: 25, minimumPSNR: 28.0), (grain: 3, minimumPSNR: 36.0)])
  func aPhotoGoesAsAPaletteImageCloseToItInAFractionOfTheBytes(
    grain: Int, minimumPSNR: Double
  ) throws {
    let bitmap = try KittyCompressionTests.photo(width: 380, height: 280, grain: grain)
    let palette = try #require(KittyPayloadFormat.palettePNG.encode(bitmap, opaque: true))
    let lossless = try #require(KittyPayloadFormat.png.encode(bitmap, opaque: true))
    // Colour type at byte 25 of the header: 3 is a palette image.
    #expect(palette[25] == 3)
    #expect(
      palette.count * 2 < lossless.count,
      "palette \(palette.count) B against lossless \(lossless.count) B")
    let decoded = try WireDecoding.png(palette)
    #expect(decoded.width == 380 && decoded.height == 280)
    let quality = ITerm2RenderTests.psnr(decoded.rgba, bitmap.pixels)
    #expect(quality >= minimumPSNR, "PSNR \(quality) dB at grain \(grain)")
  }

  @Test func aDrawnTileThatLosslessWritesSmallerGoesLossless() throws {
    let bitmap = try Bitmap.generated(width: 200, height: 100) { x, y in
      (x / 20 + y / 20) % 3 == 0 ? (250, 250, 250, 255) : (UInt8(x), UInt8(y * 2), 90, 255)
    }
    let encoded = try #require(KittyPayloadFormat.palettePNG.encode(bitmap, opaque: true))
    let lossless = try #require(KittyPayloadFormat.png.encode(bitmap, opaque: true))
    let same = encoded == lossless
    #expect(same, "\(encoded.count) B against lossless \(lossless.count) B")
    let exact = try WireDecoding.png(encoded).rgba == bitmap.pixels
    #expect(exact, "the drawn tile's pixels changed")
  }

  @Test func aTileWithTransparencyGoesLosslessWithItsAlpha() throws {
    let bitmap = try KittyCompressionTests.photo(width: 97, height: 61, opaque: false)
    let encoded = try #require(KittyPayloadFormat.palettePNG.encode(bitmap, opaque: false))
    #expect(encoded[25] == 6)
    #expect(try WireDecoding.png(encoded).rgba == bitmap.pixels)
  }

  /// Palettes where the link is slow (across SSH), lossless locally. (At 20 Mbit/s too: there
  /// `tessera bench link` took 3.1–3.4 s for kitty's first screen with palettes, lossless
  /// uploads or a mix of both, so palettes save bytes and cost no time.)
  @Test(arguments: [false, true])
  func aRendererAcrossASlowLinkUploadsPaletteImagesKittyDecodes(slow: Bool) throws {
    let palettes = slow
    let bitmap = try KittyCompressionTests.photo(width: 160, height: 120, grain: 25)
    let placement = ImagePlacement(
      imageID: 5, bitmap: bitmap, rect: CellRect(x: 0, y: 0, width: 16, height: 6))
    var frame = FrameBuffer(width: 20, height: 8)
    frame.put("status", x: 0, y: 7)
    let renderer = TerminalRenderer(graphics: .kitty)
    renderer.linkIsSlow = slow
    var wire = KittyWire()
    try wire.apply(renderer.render(frame, images: [placement]))
    let shown = try #require(wire.images.values.first, "nothing uploaded")
    #expect(shown.width == 160 && shown.height == 120)
    let quality = ITerm2RenderTests.psnr(shown.rgba, bitmap.pixels)
    #expect(palettes ? (28..<60).contains(quality) : quality == .infinity, "PSNR \(quality) dB")
    let bytes = renderer.imageBytesInLastFrame
    let lossless = KittyPayloadFormat.png.uploadBytes(for: bitmap)
    #expect(
      palettes ? bytes * 2 < lossless : bytes >= lossless,
      "\(bytes) B uploaded, \(lossless) B lossless")
    // A reset (a resume) keeps the choice.
    renderer.reset()
    var again = KittyWire()
    try again.apply(renderer.render(frame, images: [placement]))
    #expect(renderer.imageBytesInLastFrame == bytes, "after a reset, before \(bytes) B")
  }
}
