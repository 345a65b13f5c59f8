import Foundation
import Testing

@testable import TesseraImages

/// The PNG text reader takes bytes another program wrote: lengths, checksums and counts are
/// checked; what does not hold up is refused with its reason, never trusted or trapped on.
@Suite struct PNGTextChunksTests {
  private let png = HandMadePNG.solid(
    width: 3, height: 2, red: 1, green: 2, blue: 3,
    text: [("Thumb::URI", "file:///a.png"), ("Thumb::MTime", "17"), ("Thumb::URI", "second")])

  @Test func readsTheSizeAndTheFirstOfEachKey() throws {
    let chunks = try PNGTextChunks.parse(png)
    #expect(chunks.width == 3 && chunks.height == 2)
    #expect(chunks.text == ["Thumb::URI": "file:///a.png", "Thumb::MTime": "17"])
  }

  @Test func everyCutIsRefusedAsTruncatedOrMissingItsHeader() {
    for length in 0..<png.count - 12 {
      #expect(throws: PNGTextChunks.ParseError.self) { try PNGTextChunks.parse(png.prefix(length)) }
    }
  }

  @Test func aFlippedByteFailsTheChecksum() {
    var broken = png
    broken[45] ^= 0x20  // inside the first tEXt chunk's keyword
    #expect(throws: PNGTextChunks.ParseError.badChecksum(chunk: "tEXt")) {
      try PNGTextChunks.parse(broken)
    }
  }

  @Test func aLengthPastTheEndIsTruncatedNotARead() {
    var broken = png
    broken.replaceSubrange(33..<37, with: [0x7F, 0xFF, 0xFF, 0xFF])
    #expect(throws: PNGTextChunks.ParseError.truncated) { try PNGTextChunks.parse(broken) }
  }

  @Test func aZeroSizedHeaderIsRefused() {
    let bad = HandMadePNG.solid(width: 0, height: 2, red: 0, green: 0, blue: 0, text: [])
    #expect(throws: PNGTextChunks.ParseError.badHeader) { try PNGTextChunks.parse(bad) }
  }

  @Test func tooManyTextChunksAreRefused() {
    let many = (0...ThumbnailLimits.maxTextChunks).map { ("k\($0)", "v") }
    let bad = HandMadePNG.solid(width: 1, height: 1, red: 0, green: 0, blue: 0, text: many)
    #expect(throws: PNGTextChunks.ParseError.tooManyTextChunks) { try PNGTextChunks.parse(bad) }
  }

  @Test func badKeywordsAndNumbersAreSkipped() throws {
    let text = [
      ("", "empty"), (String(repeating: "k", count: 80), "long"), ("Thumb::MTime", "+17"),
    ]
    let chunks = try PNGTextChunks.parse(
      HandMadePNG.solid(width: 1, height: 1, red: 0, green: 0, blue: 0, text: text))
    #expect(chunks.text == ["Thumb::MTime": "+17"])
    #expect(ThumbnailText.number("+17") == nil)
    #expect(ThumbnailText.number("17") == 17)
    #expect(ThumbnailText.number("99999999999999999999") == nil)  // past Int
    #expect(ThumbnailText.number("1e3") == nil)
  }

  @Test func compressedTextIsCountedNotReadUntilLibvipsInflatesIt() throws {
    for kind in [HandMadePNG.TextChunk.zTXt, .compressedITXt] {
      let png = HandMadePNG.solid(
        width: 4, height: 3, red: 1, green: 2, blue: 3,
        text: [("Thumb::URI", "file:///p/a.jpg"), ("Thumb::MTime", "1700000000")], kind: kind)
      let chunks = try PNGTextChunks.parse(png)
      #expect(chunks.text.isEmpty)
      #expect(chunks.compressedTextChunks == 2)
      let inflated = chunks.withCompressedText(of: png)
      #expect(inflated.text == ["Thumb::URI": "file:///p/a.jpg", "Thumb::MTime": "1700000000"])
    }
    // Plain text is not inflated again, and bytes that are not a PNG give nothing new.
    let plain = HandMadePNG.solid(
      width: 4, height: 3, red: 1, green: 2, blue: 3, text: [("Thumb::URI", "x")])
    #expect(try PNGTextChunks.parse(plain).compressedTextChunks == 0)
    var forged = try PNGTextChunks.parse(plain)
    forged.compressedTextChunks = 1
    #expect(forged.withCompressedText(of: Data("GIF89a".utf8)) == forged)
  }

  @Test func whatTesseraWritesReadsBack() throws {
    let image = try Image(
      width: 2, height: 1, pixels: [1, 2, 3, 255, 4, 5, 6, 255],
      originalSize: PixelSize(width: 2, height: 1))
    let data = try #require(ThumbnailPNG.encode(image, text: [("Thumb::URI", "file:///é")]))
    #expect(try PNGTextChunks.parse(data).text["Thumb::URI"] == "file:///é")  // Latin-1
    #expect(HandMadePNG.read(data)?.width == 2)
  }
}
