import Testing

@testable import TesseraTerminal

/// The compressor behind kitty's `o=z` and PNG uploads, read back by an independent decoder
/// (``Inflater``, written from RFC 1950/1951 and the PNG specification).
@Suite struct KittyCompressionTests {
  /// A seeded byte generator (a 64-bit LCG's high byte): the same bytes every run.
  static func bytes(_ count: Int, seed: UInt64, alphabet: Int = 256) -> [UInt8] {
    var state = seed
    return (0..<count).map { _ in
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return UInt8(truncatingIfNeeded: Int(state >> 56) % alphabet)
    }
  }

  /// A photo-like bitmap: smooth gradients, soft noise and a few hard-edged shapes.
  static func photo(width: Int, height: Int, opaque: Bool = true) throws -> Bitmap {
    let noise = bytes(width * height, seed: 7, alphabet: 9)
    return try Bitmap.generated(width: width, height: height) { x, y in
      let n = Int(noise[y * width + x]) - 4
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

  @Test(arguments: [0, 1, 2, 3, 100, 5_000])
  func zlibRoundTripsSmallInputs(count: Int) throws {
    for alphabet in [2, 256] {
      let input = Self.bytes(count, seed: UInt64(count + alphabet), alphabet: alphabet)
      #expect(try Inflater.zlib(KittyDeflate.zlib(input)) == input)
    }
  }

  @Test func zlibRoundTripsManyBlocksLongRunsAndFarMatches() throws {
    // Random bytes (literals, several Huffman blocks), a long run (length-258 matches at
    // distance 1), then part of the random bytes again from 28,000 bytes back (far matches).
    let random = Self.bytes(40_000, seed: 42)
    let input = random + [UInt8](repeating: 7, count: 3_000) + random[15_000..<40_000]
    let compressed = KittyDeflate.zlib(input)
    #expect(try Inflater.zlib(compressed) == input)
    #expect(compressed.count < input.count * 6 / 10)
  }

  @Test func theChecksumIsAdler32() {
    #expect(KittyDeflate.adler32(Array("Wikipedia".utf8)) == 0x11E6_0398)
    #expect(KittyDeflate.adler32([]) == 1)
  }

  @Test func huffmanCodesRespectTheLengthLimitAndAreComplete() {
    // Fibonacci frequencies make the deepest Huffman trees: 30 symbols would need 29 bits.
    var fibonacci = [1, 1]
    while fibonacci.count < 30 {
      fibonacci.append(fibonacci[fibonacci.count - 1] + fibonacci[fibonacci.count - 2])
    }
    for limit in [7, 15] {
      let lengths = HuffmanCode.lengths(fibonacci, limit: limit, minimumCodes: 2)
      #expect(lengths.allSatisfy { $0 >= 1 && Int($0) <= limit })
      let kraft = lengths.reduce(0.0) { $0 + 1 / Double(1 << Int($1)) }
      #expect(kraft == 1)
    }
    let single = HuffmanCode.lengths([0, 5, 0], limit: 15, minimumCodes: 2)
    #expect(single.filter { $0 > 0 }.count == 2)
  }

  @Test(arguments: [true, false])
  func pngRoundTripsPixelsExactly(opaque: Bool) throws {
    for (width, height) in [(1, 1), (3, 2), (97, 61)] {
      let bitmap = try Self.photo(width: width, height: height, opaque: opaque)
      let png = try Inflater.png(KittyPNG.encode(bitmap, opaque: opaque))
      #expect(png.width == width && png.height == height)
      #expect(png.rgba == bitmap.pixels)
    }
  }

  @Test func pngAndZlibUploadsDecodeToTheSamePixelsAsRaw() throws {
    let bitmap = try Self.photo(width: 64, height: 40)
    var sizes: [KittyPayloadFormat: Int] = [:]
    for format in KittyPayloadFormat.allCases {
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
