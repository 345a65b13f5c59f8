import Foundation
import TesseraTestSupport
import TesseraUtilities
import Testing

@testable import TesseraPhotoFormats
@testable import TesseraPhotoLibrary

/// Forged HEIF boxes: every count, size and offset a file states is checked before it is used,
/// so hostile bytes give no facts or partial ones, never a trap or an unbounded walk.
@Suite(.timeLimit(.minutes(1))) struct HEIFHostileBoxTests {
  @Test func aLargesizeBeyondTheBytesIsCutToThem() {
    let huge = Box.u32(1) + Array("free".utf8) + Box.u64(.max) + [1, 2, 3]
    let boxes = ISOBoxes.children(of: 0..<huge.count, in: huge, depth: 0)
    // Where it says it ends saturates: 2^64 - 1 past byte 0 is no number to step to.
    #expect(
      boxes == [ISOBox(type: "free", payload: 16..<19, complete: false, declaredEnd: .max)])
    let shifted = Box.plain("free", []) + huge
    #expect(
      ISOBoxes.children(of: 0..<shifted.count, in: shifted, depth: 0).last?.declaredEnd == .max)
    // The fixture's meta box (and the mdat after it) under a header claiming 2^64 - 1
    // bytes: what is there is read.
    let meta = HEIFFixture().bytes.dropFirst(Box.ftyp().count)
    let forged = Box.ftyp() + Box.u32(1) + Array("meta".utf8) + Box.u64(.max) + meta.dropFirst(8)
    let header = HEIFHeader(bytes: forged)
    #expect(header?.pixelSize == PixelSize(width: 4000, height: 3000))
  }

  @Test func sizeZeroRunsToTheEndAndASizeBelowTheHeaderStops() {
    let toEnd = Box.u32(0) + Array("mdat".utf8) + [9, 9]
    #expect(
      ISOBoxes.children(of: 0..<toEnd.count, in: toEnd, depth: 0) == [
        ISOBox(type: "mdat", payload: 8..<10, complete: true, declaredEnd: 10)
      ])
    let tooSmall = Box.u32(4) + Array("free".utf8) + Box.plain("skip", [])
    #expect(ISOBoxes.children(of: 0..<tooSmall.count, in: tooSmall, depth: 0).isEmpty)
    let largeTooSmall = Box.u32(1) + Array("free".utf8) + Box.u64(8)
    #expect(ISOBoxes.children(of: 0..<largeTooSmall.count, in: largeTooSmall, depth: 0).isEmpty)
    #expect(ISOBoxes.children(of: 0..<8, in: [], depth: 0).isEmpty)
    #expect(ISOBoxes.children(of: 0..<8, in: toEnd, depth: FeedLimits.maxHEIFBoxDepth + 1).isEmpty)
  }

  @Test func aBoxClaimingPastItsContainerIsTheLastOneRead() {
    let inner = Box.u32(1_000) + Array("ispe".utf8) + [0, 0, 0, 0]
    let container = Box.plain("ipco", inner) + Box.plain("ipma", [])
    let outer = ISOBoxes.children(of: 0..<container.count, in: container, depth: 2)
    #expect(outer.map(\.type) == ["ipco", "ipma"])
    let children = ISOBoxes.children(of: outer[0].payload, in: container, depth: 3)
    #expect(
      children == [ISOBox(type: "ispe", payload: 16..<20, complete: false, declaredEnd: 1_008)])
  }

  /// Every prefix of a file (the header bytes of a file cut anywhere) gives the right facts or
  /// fewer: never a trap, never a wrong size.
  @Test func everyPrefixGivesTheFactsOrFewer() {
    let bytes = HEIFFixture().bytes
    for length in 0...bytes.count {
      let header = PhotoHeader(bytes: Array(bytes.prefix(length)))
      if let size = header.pixelSize { #expect(size == PixelSize(width: 4000, height: 3000)) }
      if let model = header.exif?.model { #expect(model == "Pixel 8") }
    }
    #expect(PhotoHeader(bytes: bytes).exif?.model == "Pixel 8")
  }

  /// Every byte of the file forged to 0x00, 0x7F, 0x80 or 0xFF: facts within limits or none.
  @Test func everyForgedByteKeepsTheFactsWithinLimits() {
    let bytes = HEIFFixture().bytes
    for index in bytes.indices {
      for value: UInt8 in [0x00, 0x7F, 0x80, 0xFF] {
        var forged = bytes
        forged[index] = value
        let header = PhotoHeader(bytes: forged)
        if let size = header.pixelSize { #expect(size.isWithinFeedLimits) }
        #expect(header.exif?.orientation == nil)
      }
    }
  }

  /// The reader descends only into the boxes it knows, each at its own level: a real meta
  /// box wrapped in a thousand more, or a property in two thousand ipco boxes, is not found.
  @Test func deepNestingIsNotFollowed() {
    let fixture = HEIFFixture().bytes
    let top = ISOBoxes.children(of: 0..<fixture.count, in: fixture, depth: 0)
    var meta = Array(fixture[(top[1].payload.lowerBound - 8)..<top[1].payload.upperBound])
    #expect(HEIFHeader(bytes: Box.ftyp() + meta)?.pixelSize == PixelSize(width: 4000, height: 3000))
    for _ in 0..<1_000 { meta = Box.full("meta", meta) }
    let header = HEIFHeader(bytes: Box.ftyp() + meta)
    #expect(header == HEIFHeader())
    var boxes: [UInt8] = Box.ispe(64, 48)
    for _ in 0..<2_000 { boxes = Box.plain("ipco", boxes) }
    var fixtureDeep = HEIFFixture()
    fixtureDeep.properties = [boxes]
    #expect(HEIFHeader(bytes: fixtureDeep.bytes)?.pixelSize == nil)
  }

  @Test func ilocWithHugeCountsStopsAtItsLimits() {
    // Version 2, no offset or length bytes: 2^32 - 1 items claimed, each with 65,535 extents
    // that take no bytes.
    let item = Box.u32(7) + Box.u16(0) + Box.u16(0) + Box.u16(0xFFFF)
    var fixture = HEIFFixture()
    fixture.iloc = Box.full(
      "iloc", version: 2,
      [0x00, 0x00] + Box.u32(0xFFFF_FFFF) + item + item
        + Box.u32(2) + Box.u16(0) + Box.u16(0) + Box.u16(1))
    let bytes = fixture.bytes
    let meta = ISOBoxes.children(of: 0..<bytes.count, in: bytes, depth: 0)[1]
    let items = HEIFItems(meta: meta, in: bytes)
    // The second item's extents would pass `maxHEIFExtents`: the walk stops there.
    #expect(items.locations.isEmpty)
    #expect(items.types.count == 2)
    let header = PhotoHeader(bytes: bytes)
    #expect(header.exif == nil)
    #expect(header.pixelSize == PixelSize(width: 4000, height: 3000))
  }

  @Test(arguments: [0x55, 0x45, 0x00])
  func ilocFieldSizesOtherThanZeroFourOrEightAreRefused(sizes: Int) {
    var fixture = HEIFFixture()
    let placed = Box.u16(2) + Box.u16(0) + Box.u16(1) + [UInt8](repeating: 0, count: 10)
    fixture.iloc = Box.full("iloc", [UInt8(sizes), 0x00] + Box.u16(1) + placed)
    let bytes = fixture.bytes
    let meta = ISOBoxes.children(of: 0..<bytes.count, in: bytes, depth: 0)[1]
    let items = HEIFItems(meta: meta, in: bytes)
    // 0x00 reads zero-size offset and length: the item is at 0, to the end of the file.
    #expect(
      items.locations == (sizes == 0 ? [2: HEIFExtent(baseOffset: 0, offset: 0, length: 0)!] : [:]))
  }

  @Test func anExifOffsetBeyondTheFileOrItsLimitIsNoExif() async throws {
    #expect(HEIFExtent(baseOffset: 0, offset: .max, length: 10) == nil)
    #expect(HEIFExtent(baseOffset: .max - 1, offset: 10, length: 10) == nil)
    #expect(HEIFExtent(baseOffset: 1 << 27, offset: 1 << 27, length: 10) != nil)
    #expect(HEIFExtent(baseOffset: 1 << 27, offset: (1 << 27) + 1, length: 10) == nil)
    #expect(HEIFExtent(baseOffset: 0, offset: 0, length: .max) == nil)
    let far = try #require(HEIFExtent(baseOffset: 0, offset: 200 << 20, length: 10))
    #expect(far.range(inFileOf: 1_000, limit: 1 << 16) == nil)
    let open = try #require(HEIFExtent(baseOffset: 0, offset: 900, length: 0))
    #expect(open.range(inFileOf: 1_000, limit: 1 << 16) == 900..<1_000)
    #expect(open.range(inFileOf: 1_000, limit: 10) == 900..<910)
    var fixture = HEIFFixture()
    fixture.iloc = Box.full(
      "iloc", version: 1,
      [0x88, 0x80] + Box.u16(1) + Box.u16(2) + Box.u16(0) + Box.u16(0) + Box.u64(100 << 20)
        + Box.u16(1) + Box.u64(50 << 20) + Box.u64(64))
    let bytes = fixture.bytes
    #expect(
      HEIFHeader(bytes: bytes)?.exif
        == HEIFExtent(baseOffset: 100 << 20, offset: 50 << 20, length: 64))
    try await TemporaryFolder.with { folder in
      let path = folder.appendingPathComponent("far.heic").path
      try Data(bytes).write(to: URL(fileURLWithPath: path))
      let header = try #require(LocalPhotoHeaderReader().header(ofFileAt: path))
      #expect(header.exif == nil)
      #expect(header.pixelSize == PixelSize(width: 4000, height: 3000))
    }
  }

  @Test func anExifItemWhoseTIFFOffsetPointsNowhereIsNoExif() {
    let tiff = ExifWriter().tiff
    #expect(HEIFHeader.tiff(inExifItem: Box.u32(0xFFFF_FFFF) + tiff) == nil)
    #expect(HEIFHeader.tiff(inExifItem: Box.u32(tiff.count) + tiff) == nil)
    #expect(HEIFHeader.tiff(inExifItem: Box.u32(3) + tiff) == nil)
    #expect(HEIFHeader.tiff(inExifItem: [0, 0, 0]) == nil)
    #expect(HEIFHeader.tiff(inExifItem: Box.u32(2) + [0, 0] + tiff) == tiff)
    var fixture = HEIFFixture()
    fixture.exifItem = Box.u32(0x7FFF_FFFF) + tiff
    #expect(PhotoHeader(bytes: fixture.bytes).exif == nil)
  }

  @Test(arguments: [[("dimg", 1, [2]), ("dimg", 2, [1])], [("dimg", 1, [1])], []])
  func aDerivationLoopHasNoSize(references: [(String, Int, [Int])]) {
    var fixture = HEIFFixture()
    fixture.items = [(1, "iden"), (2, "iden"), (3, "Exif")]
    fixture.properties = [Box.irot(1)]
    fixture.associations = [(1, [1]), (2, [1])]
    fixture.references = references.map { (type: $0.0, from: $0.1, to: $0.2) }
    let header = PhotoHeader(bytes: fixture.bytes)
    #expect(header.pixelSize == nil)
  }

  @Test func aDerivationChainLongerThanTheLimitHasNoSize() {
    func chain(_ length: Int) -> HEIFFixture {
      var fixture = HEIFFixture()
      fixture.items = (1...length).map { ($0, $0 == length ? "hvc1" : "iden") }
      fixture.properties = [Box.ispe(64, 48)]
      fixture.associations = [(length, [1])]
      fixture.references = (1..<length).map { (type: "dimg", from: $0, to: [$0 + 1]) }
      return fixture
    }
    let limit = FeedLimits.maxHEIFDerivations
    #expect(
      PhotoHeader(bytes: chain(limit + 1).bytes).pixelSize == PixelSize(width: 64, height: 48))
    #expect(PhotoHeader(bytes: chain(limit + 2).bytes).pixelSize == nil)
  }

  @Test func ipmaAndIrefCountsBeyondTheirBytesStopAtTheBytes() throws {
    var fixture = HEIFFixture()
    fixture.references = [("cdsc", 2, [1]), ("dimg", 1, Array(repeating: 1, count: 3))]
    var bytes = fixture.bytes
    // Claim 200 references in the dimg box (3 are there), and 2^32 - 1 ipma entries (1 is).
    let dimg = try #require(find("dimg", in: bytes))
    bytes[dimg + 7] = 200
    let ipma = try #require(find("ipma", in: bytes))
    for offset in 8..<12 { bytes[ipma + offset] = 0xFF }
    let meta = ISOBoxes.children(of: 0..<bytes.count, in: bytes, depth: 0)[1]
    let items = HEIFItems(meta: meta, in: bytes)
    try #require(items.references.count == 2)
    #expect(items.references[1].to == [1, 1, 1])
    #expect(items.associations[1] == [0])
    #expect(PhotoHeader(bytes: bytes).pixelSize == PixelSize(width: 4000, height: 3000))
    // 65,535 claimed: more than `maxHEIFReferences` in all; that box and any after it are
    // not read.
    bytes[dimg + 6] = 0xFF
    bytes[dimg + 7] = 0xFF
    #expect(HEIFItems(meta: meta, in: bytes).references.map(\.type) == ["cdsc"])
  }

  /// Where the four-character code `type` starts in `bytes`.
  private func find(_ type: String, in bytes: [UInt8]) -> Int? {
    let code = Array(type.utf8)
    return bytes.indices.dropLast(3).first { bytes[$0..<$0 + 4].elementsEqual(code) }
  }
}
