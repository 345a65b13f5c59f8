import Testing

@testable import TesseraPhotoFormats

/// APNG and AVIF/HEIF sequences are known by their first bytes, which may be anyone's.
struct ImageSequenceTests {
  static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

  static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
    let length = UInt32(data.count)
    return [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: length >> $0) } + Array(type.utf8)
      + data + [0, 0, 0, 0]
  }

  static func be32(_ value: UInt32) -> [UInt8] {
    [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) }
  }

  static func png(_ chunks: [[UInt8]]) -> [UInt8] { signature + chunks.joined() }

  static let ihdr = chunk("IHDR", be32(4) + be32(4) + [8, 6, 0, 0, 0])
  static let idat = chunk("IDAT", [0x78, 0x9C])

  @Test func anAPNGSaysItsFramesAndPlays() {
    let apng = Self.png([Self.ihdr, Self.chunk("acTL", Self.be32(3) + Self.be32(2)), Self.idat])
    let sequence = ImageSequence(apng)
    #expect(sequence == ImageSequence(apng))
    #expect(sequence?.kind == .apng)
    #expect(sequence?.announcedFrames == 3)
    #expect(sequence?.plays == 2)
    #expect(AnimatedImage.isAnimated(apng))
  }

  @Test func aPNGThatDoesNotAnimateIsNone() {
    let cases: [(String, [UInt8])] = [
      ("a still PNG", Self.png([Self.ihdr, Self.idat])),
      (
        "acTL after the pixels",
        Self.png([Self.ihdr, Self.idat, Self.chunk("acTL", Self.be32(3) + Self.be32(0))])
      ),
      (
        "one frame",
        Self.png([Self.ihdr, Self.chunk("acTL", Self.be32(1) + Self.be32(0)), Self.idat])
      ),
      ("a short acTL", Self.png([Self.ihdr, Self.chunk("acTL", Self.be32(3)), Self.idat])),
      (
        "counts past 2^31",
        Self.png([Self.ihdr, Self.chunk("acTL", Self.be32(.max) + Self.be32(0))])
      ),
      (
        "a chunk longer than PNG allows",
        Self.signature + Self.be32(0xFFFF_FFF0) + Array("tEXt".utf8)
      ),
      (
        "bytes that end in a chunk",
        Array(Self.png([Self.ihdr, Self.chunk("acTL", Self.be32(3) + Self.be32(0))]).dropLast(8))
      ),
      ("nothing", []),
    ]
    for (name, bytes) in cases {
      #expect(ImageSequence(bytes) == nil, "\(name)")
    }
  }

  static func ftyp(_ brands: String...) -> [UInt8] {
    let body = Array(brands[0].utf8) + [0, 0, 0, 0] + brands.dropFirst().flatMap { Array($0.utf8) }
    return Self.be32(UInt32(8 + body.count)) + Array("ftyp".utf8) + body
  }

  @Test func anAVIFOrHEIFSequenceIsKnownByItsBrand() {
    for bytes in [
      Self.ftyp("avis", "avif", "mif1"), Self.ftyp("avif", "mif1", "avis"),
      Self.ftyp("msf1", "iso8"), Self.ftyp("heic", "msf1"),
    ] {
      #expect(ImageSequence(bytes)?.kind == .isoSequence)
      #expect(ImageSequence(bytes)?.plays == 0)
    }
    // A still AVIF or HEIC, and "avis" as the minor version, are not.
    for bytes in [
      Self.ftyp("avif", "mif1", "miaf"), Self.ftyp("heic", "mif1", "MiHB"),
      Self.be32(16) + Array("ftypheic".utf8) + Array("avis".utf8),
    ] {
      #expect(ImageSequence(bytes) == nil)
    }
  }
}
