import Testing

@testable import TesseraPhotoFormats

@Suite struct ImageSignatureTests {
  @Test(
    arguments: [
      ([0xFF, 0xD8, 0xFF, 0xE0], ImageSignature.jpeg, "image/jpeg"),
      ([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0], .png, "image/png"),
      (Array("GIF87a".utf8), .gif, "image/gif"),
      (Array("GIF89a".utf8), .gif, "image/gif"),
      (Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WEBPVP8 ".utf8), .webp, "image/webp"),
      ([0x49, 0x49, 0x2A, 0x00], .tiff, "image/tiff"),
      ([0x4D, 0x4D, 0x00, 0x2A], .tiff, "image/tiff"),
      ([0, 0, 0, 0x1C] + Array("ftypavif".utf8), .avif, "image/avif"),
      ([0, 0, 0, 0x1C] + Array("ftypheic".utf8), .heif, "image/heif"),
      ([0xFF, 0x0A, 0xFA, 0x7F], .jxl, "image/jxl"),
      (ImageSignature.jpegXLContainer + [0, 0, 0, 0x14], .jxl, "image/jxl"),
    ] as [([UInt8], ImageSignature, String)])
  func knownSignaturesAreNamed(bytes: [UInt8], format: ImageSignature, type: String) {
    #expect(ImageSignature(sniffing: bytes) == format)
    #expect(format.mimeType == type)
  }

  @Test(
    arguments: [
      [], [0xFF, 0xD8], [0x89, 0x50, 0x4E, 0x47], Array("GIF8".utf8), Array("GIF88a".utf8),
      Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WAVE".utf8), Array("hello, world".utf8),
      [0, 0, 0, 0x1C] + Array("ftypisom".utf8), Array("<svg".utf8), Array("%PDF-1.4".utf8),
    ] as [[UInt8]])
  func anythingElseIsNoImage(bytes: [UInt8]) {
    #expect(ImageSignature(sniffing: bytes) == nil)
  }

  /// Only the first 16 bytes count: a signature further in is not one.
  @Test func looksNoFurtherThanSixteenBytes() {
    let late = [UInt8](repeating: 0, count: 16) + [0xFF, 0xD8, 0xFF]
    #expect(ImageSignature(sniffing: late) == nil)
    #expect(ImageSignature(sniffing: [0xFF, 0xD8, 0xFF] + late) == .jpeg)
    #expect(ImageSignature(sniffing: ArraySlice([0x00, 0xFF, 0xD8, 0xFF]).dropFirst()) == .jpeg)
  }
}
