import Testing

@testable import TesseraTerminal

/// Kitty's `o=z` and PNG uploads, written through zlib and libpng and read back by their
/// decoders (``WireDecoding``): the pixels survive, the alpha channel only where it is needed,
/// and the filters pay on photo-like pixels.
@Suite struct KittyCompressionTests {
  /// A seeded byte generator (a 64-bit LCG's high byte): the same bytes every run.
  static func bytes(_ count: Int, seed: UInt64, alphabet: Int = 256) -> [UInt8] {
    var state = seed
    return (0..<count).map { _ in
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return UInt8(truncatingIfNeeded: Int(state >> 56) % alphabet)
    }
  }

  /// A photo-like bitmap: smooth gradients, noise of `grain` levels (soft by default; 25 is
  /// a camera's ±12) and a few hard-edged shapes.
  static func photo(
    width: Int, height: Int, opaque: Bool = true, grain: Int = 9, seed: UInt64 = 7
  ) throws -> Bitmap {
    let noise = bytes(width * height, seed: seed, alphabet: grain)
    return try Bitmap.generated(width: width, height: height) { x, y in
      let n = Int(noise[y * width + x]) - grain / 2
      let inDisc =
        (x - width / 3) * (x - width / 3) + (y - height / 2) * (y - height / 2)
        < (width / 5) * (width / 5)
      let r = inDisc ? 220 : x * 255 / width
      let g = inDisc ? 60 : y * 200 / height
      let b = (x + y) * 100 / (width + height) + 60
      return (
        UInt8(clamping: r + n), UInt8(clamping: g + n), UInt8(clamping: b - n),
        opaque ? 255 : UInt8(clamping: 128 + x % 100)
      )
    }
  }

  @Test(arguments: [1, 3, 100, 5_000])
  func zlibUploadsRoundTripThroughZlibsInflate(side: Int) throws {
    let bitmap = try Self.photo(width: side, height: 1)
    let payload = try #require(KittyPayloadFormat.zlib.encode(bitmap, opaque: true))
    #expect(try WireDecoding.zlib(payload) == KittyPayloadFormat.samples(of: bitmap, opaque: true))
  }

  @Test(arguments: [true, false])
  func pngRoundTripsPixelsExactly(opaque: Bool) throws {
    for (width, height) in [(1, 1), (3, 2), (97, 61)] {
      let bitmap = try Self.photo(width: width, height: height, opaque: opaque)
      let encoded = try #require(KittyPayloadFormat.png.encode(bitmap, opaque: opaque))
      // Colour type at byte 25 of the header: 2 is RGB, 6 RGBA.
      #expect(encoded[25] == (opaque ? 2 : 6))
      let png = try WireDecoding.png(encoded)
      #expect(png.width == width && png.height == height)
      #expect(png.rgba == bitmap.pixels)
    }
  }

  @Test func pngAndZlibUploadsDecodeToTheSamePixelsAsRaw() throws {
    let bitmap = try Self.photo(width: 64, height: 40)
    var sizes: [KittyPayloadFormat: Int] = [:]
    for format in KittyPayloadFormat.allCases where format != .palettePNG {
      var out = ByteWriter()
      KittyCommands.transmit(id: 3, bitmap: bitmap, format: format, passthrough: false, into: &out)
      var wire = KittyWire()
      try wire.apply(out.bytes)
      #expect(wire.images[3]?.rgba == bitmap.pixels, "\(format)")
      sizes[format] = out.count
    }
    // Photo-like pixels: filtering before deflate is what pays.
    let raw = try #require(sizes[.raw])
    #expect(try #require(sizes[.png]) < raw * 7 / 10, "\(sizes)")
    #expect(try #require(sizes[.png]) < (try #require(sizes[.zlib])))
  }

  @Test func compressedUploadsSayHowTheyAreEncoded() throws {
    let bitmap = try Self.photo(width: 8, height: 8)
    for (format, keys) in [
      (KittyPayloadFormat.raw, "a=t,t=d,f=24,s=8,v=8,i=2,"),
      (.zlib, "a=t,t=d,f=24,o=z,s=8,v=8,i=2,"), (.png, "a=t,t=d,f=100,s=8,v=8,i=2,"),
    ] {
      var out = ByteWriter()
      KittyCommands.transmit(id: 2, bitmap: bitmap, format: format, passthrough: false, into: &out)
      #expect(String(decoding: out.bytes, as: UTF8.self).hasPrefix("\u{1B}_G" + keys))
    }
  }
}
