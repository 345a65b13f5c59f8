import Testing

@testable import TesseraUtilities

@Suite struct StableHashTests {
  /// Published FNV-1a 64 test vectors: the hash is the standard one, so names stay the same
  /// across versions and machines.
  @Test func fnv1aMatchesTheReferenceVectors() {
    #expect(StableHash.of("") == 0xcbf2_9ce4_8422_2325)
    #expect(StableHash.of("a") == 0xaf63_dc4c_8601_ec8c)
    #expect(StableHash.of("foobar") == 0x8594_4171_f739_67e8)
    #expect(StableHash.fnv1a(Array("foobar".utf8)) == StableHash.of("foobar"))
  }

  @Test func hashingContinuesFromAPreviousHash() {
    #expect(StableHash.of("bar", basis: StableHash.of("foo")) == StableHash.of("foobar"))
  }

  @Test func hexIsSixteenDigitsAndWideHexThirtyTwo() {
    #expect(StableHash.hex(0xab) == "00000000000000ab")
    #expect(StableHash.hex(.max) == "ffffffffffffffff")
    let wide = StableHash.wideHex("https://example.com/a.jpg")
    #expect(wide.count == 32)
    #expect(wide.hasPrefix(StableHash.hex(StableHash.of("https://example.com/a.jpg"))))
    #expect(wide != StableHash.wideHex("https://example.com/b.jpg"))
  }

  @Test func theChecksumSeesEveryByteAndTheLength() {
    let body: [UInt8] = Array(0..<37)
    let sum = body.withUnsafeBytes(StableHash.checksum)
    for index in body.indices {
      var flipped = body
      flipped[index] ^= 1
      #expect(flipped.withUnsafeBytes(StableHash.checksum) != sum)
    }
    #expect(Array(body.dropLast()).withUnsafeBytes(StableHash.checksum) != sum)
    #expect((body + [0]).withUnsafeBytes(StableHash.checksum) != sum)
    #expect(body.withUnsafeBytes(StableHash.checksum) == sum)
  }
}
