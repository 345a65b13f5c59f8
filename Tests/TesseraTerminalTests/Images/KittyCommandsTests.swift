import Foundation
import Testing

@testable import TesseraTerminal

@Suite struct KittyCommandsTests {
  static func text(_ out: ByteWriter) -> String { String(decoding: out.bytes, as: UTF8.self) }

  @Test func base64MatchesTheStandardAlphabetWithPadding() {
    for (input, expected) in [
      ("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foobar", "Zm9vYmFy"),
    ] {
      var out: [UInt8] = []
      Base64.encode(Array(input.utf8)[...], into: &out)
      #expect(String(decoding: out, as: UTF8.self) == expected)
    }
  }

  @Test func aSmallOpaqueImageIsOneRGBChunk() throws {
    let bitmap = try Bitmap(width: 1, height: 2, pixels: [1, 2, 3, 255, 4, 5, 6, 255])
    var out = ByteWriter()
    KittyCommands.transmit(id: 7, bitmap: bitmap, format: .raw, passthrough: false, into: &out)
    var payload: [UInt8] = []
    Base64.encode([1, 2, 3, 4, 5, 6][...], into: &payload)
    #expect(
      Self.text(out)
        == "\u{1B}_Ga=t,t=d,f=24,s=1,v=2,i=7,q=2,m=0;\(String(decoding: payload, as: UTF8.self))\u{1B}\\"
    )
  }

  @Test func largeImagesAreChunkedAt4096Base64Bytes() throws {
    // 64×64 RGBA with one transparent pixel: 16384 bytes → 21848 base64 → 6 chunks.
    var bitmap = try Bitmap.generated(width: 64, height: 64) { x, y in (UInt8(x), UInt8(y), 0, 255)
    }
    var pixels = bitmap.pixels
    pixels[3] = 0
    bitmap = try Bitmap(width: 64, height: 64, pixels: pixels)
    var out = ByteWriter()
    KittyCommands.transmit(id: 9, bitmap: bitmap, format: .raw, passthrough: false, into: &out)
    let commands = Self.text(out).components(separatedBy: "\u{1B}\\").filter { !$0.isEmpty }
    #expect(commands.count == 6)
    #expect(commands[0].hasPrefix("\u{1B}_Ga=t,t=d,f=32,s=64,v=64,i=9,q=2,m=1;"))
    for middle in commands[1..<5] { #expect(middle.hasPrefix("\u{1B}_Gm=1,q=2;")) }
    #expect(commands[5].hasPrefix("\u{1B}_Gm=0,q=2;"))
    let payloads = commands.map { String($0.split(separator: ";", maxSplits: 1)[1]) }
    #expect(payloads[0..<5].allSatisfy { $0.utf8.count == 4096 })
    var expected: [UInt8] = []
    Base64.encode(pixels[...], into: &expected)
    #expect(payloads.joined() == String(decoding: expected, as: UTF8.self))
  }

  @Test func throughTmuxChunksGoFourToAPassthroughSequence() throws {
    // The 6-chunk upload above: tmux writes its own resets after every passthrough sequence,
    // so its chunks go four to one (then two), each sequence a place the upload may pause.
    var pixels = try Bitmap.generated(width: 64, height: 64) { x, y in (UInt8(x), UInt8(y), 0, 255)
    }.pixels
    pixels[3] = 0
    let bitmap = try Bitmap(width: 64, height: 64, pixels: pixels)
    var plain = ByteWriter()
    KittyCommands.transmit(id: 9, bitmap: bitmap, format: .raw, passthrough: false, into: &plain)
    var wrapped = ByteWriter()
    var ends: [Int] = []
    KittyCommands.transmit(
      id: 9, bitmap: bitmap, format: .raw, passthrough: true, into: &wrapped, commandEnds: &ends)
    let wire = try TmuxWire(wrapped.bytes)
    #expect(wire.sequences == 2, "\(wire.sequences) passthrough sequences")
    #expect(wire.pane.isEmpty)
    #expect(wire.passedThrough == plain.bytes)
    let chunks = wire.contents.map {
      String(decoding: $0, as: UTF8.self).components(separatedBy: "\u{1B}_G").count - 1
    }
    #expect(chunks == [KittyCommands.chunksPerPassthrough, 6 - KittyCommands.chunksPerPassthrough])
    #expect(
      ends.count == 2 && ends.last == wrapped.count, "command ends \(ends) of \(wrapped.count)")
    if let first = ends.first {
      #expect(try TmuxWire(Array(wrapped.bytes[..<first])).sequences == 1)
    }
  }

  @Test func placeCropHideAndFree() {
    var out = ByteWriter()
    KittyCommands.place(
      id: 3, placement: 2, columns: 10, rows: 4,
      source: .init(x: 0, y: 50, width: 100, height: 200), passthrough: false, into: &out)
    KittyCommands.hide(id: 3, placement: 2, passthrough: false, into: &out)
    KittyCommands.free(id: 3, passthrough: false, into: &out)
    #expect(
      Self.text(out)
        == "\u{1B}_Ga=p,i=3,p=2,x=0,y=50,w=100,h=200,c=10,r=4,C=1,q=2\u{1B}\\"
        + "\u{1B}_Ga=d,d=i,i=3,p=2,q=2\u{1B}\\" + "\u{1B}_Ga=d,d=I,i=3,q=2\u{1B}\\")
  }

  @Test func tmuxPassthroughDoublesEscapes() {
    var out = ByteWriter()
    KittyCommands.placeVirtual(id: 5, columns: 2, rows: 1, passthrough: true, into: &out)
    #expect(
      Self.text(out) == "\u{1B}Ptmux;\u{1B}\u{1B}_Ga=p,U=1,i=5,c=2,r=1,q=2\u{1B}\u{1B}\\\u{1B}\\")
  }

  @Test func placeholderCellsNumberRowsAndColumnsAndCarryTheID() {
    #expect(KittyPlaceholder.diacritics.count == 297)
    #expect(KittyPlaceholder.grapheme(row: 0, column: 2) == "\u{10EEEE}\u{0305}\u{030E}")
    #expect(KittyPlaceholder.grapheme(row: 2, column: 0)?.count == 1)
    #expect(KittyPlaceholder.grapheme(row: 297, column: 0) == nil)
    #expect(KittyPlaceholder.colour(for: 0x01_02_03) == .rgb(1, 2, 3))
  }
}
