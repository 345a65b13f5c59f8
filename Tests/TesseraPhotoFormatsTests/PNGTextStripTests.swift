import Foundation
import TesseraTestSupport
import TesseraUtilities
import Testing

@testable import TesseraPhotoFormats

/// The decoder's PNG has no text chunk, and everything else byte for byte.
@Suite struct PNGTextStripTests {
  static func chunkTypes(_ png: Data) -> [String] {
    let bytes = [UInt8](png)
    var types: [String] = []
    var offset = 8
    while offset + 12 <= bytes.count {
      let length = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
      types.append(String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self))
      offset += 12 + length
    }
    return types
  }

  @Test(arguments: [PNGWriter.TextKind.plain, .deflated, .internationalDeflated])
  func everyKindOfTextIsLeftOut(kind: PNGWriter.TextKind) throws {
    let png = CraftedPNG.solid(
      width: 3, height: 2, red: 9, green: 8, blue: 7,
      text: [("Comment", "a"), ("Software", "b"), ("Title", "c")], kind: kind)
    let stripped = try #require(PNGTextStrip.strippingText(png))
    #expect(Self.chunkTypes(stripped) == ["IHDR", "IDAT", "IEND"])
    #expect(stripped == CraftedPNG.solid(width: 3, height: 2, red: 9, green: 8, blue: 7))
  }

  @Test func aPNGWithoutTextAndOtherBytesAreLeftAlone() {
    #expect(PNGTextStrip.strippingText(CraftedPNG.grey(width: 4, height: 4)) == nil)
    #expect(PNGTextStrip.strippingText(Data("not a png at all".utf8)) == nil)
    #expect(PNGTextStrip.strippingText(Data(CraftedPNG.signature)) == nil)
  }

  /// A chunk whose length runs past the bytes, or a cut file: not rewritten (libvips says
  /// what is wrong with it), and never read past its end.
  @Test func aLyingOrCutFileIsLeftAsItIs() {
    let png = CraftedPNG.solid(
      width: 2, height: 2, red: 1, green: 2, blue: 3, text: [("Comment", "hello")])
    for length in 0..<png.count {
      let cut = png.prefix(length)
      let stripped = PNGTextStrip.strippingText(cut)
      #expect(stripped == nil || stripped!.count < cut.count, "cut at \(length)")
    }
    var lying = [UInt8](png)
    lying[33...36] = [0xFF, 0xFF, 0xFF, 0xF0]  // the tEXt chunk's length: 2^32 − 16
    #expect(PNGTextStrip.strippingText(Data(lying)) == nil)
  }
}
