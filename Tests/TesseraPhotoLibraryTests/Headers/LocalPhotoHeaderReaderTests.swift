import Foundation
import TesseraPhotoFormats
import TesseraTestSupport
import TesseraUtilities
import Testing

@testable import TesseraPhotoLibrary

/// A JPEG's header is read with one small read when its frame header comes early, and read
/// again, longer, when its segments go on past the first read: the facts are the same.
@Suite struct LocalPhotoHeaderReaderTests {
  /// `segments` (each a marker and its payload) between a JPEG's EXIF and its frame header,
  /// then `scanBytes` of entropy-coded data, as a camera's file is laid out.
  static func jpeg(
    exif: ExifWriter, segments: [(marker: UInt8, payload: [UInt8])], scanBytes: Int
  ) -> [UInt8] {
    let file = exif.jpeg()
    let frameStart = file.indices.first { file[$0] == 0xFF && file[$0 + 1] == 0xC0 }!
    var extra: [UInt8] = []
    for (marker, payload) in segments {
      let length = payload.count + 2
      extra += [0xFF, marker, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
    }
    let scan = (0..<scanBytes).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) | 1 }
    return Array(file[..<frameStart]) + extra + Array(file[frameStart...].dropLast(2)) + scan
      + [0xFF, 0xD9]
  }

  func read(_ file: [UInt8]) async throws -> PhotoHeader? {
    try await TemporaryFolder.with { folder in
      let path = folder.appendingPathComponent("photo.jpg").path
      try Data(file).write(to: URL(fileURLWithPath: path))
      return LocalPhotoHeaderReader().header(ofFileAt: path)
    }
  }

  @Test func aCameraJPEGHasItsWholeHeaderInTheFirstRead() async throws {
    let file = Self.jpeg(
      exif: ExifWriter(thumbnail: [UInt8](repeating: 0x55, count: 6_000)), segments: [],
      scanBytes: 400_000)
    #expect(
      LocalPhotoHeaderReader.holdsWholeJPEGHeader(
        Array(file.prefix(LocalPhotoHeaderReader.firstReadBytes))))
    let header = try #require(try await read(file))
    #expect(header.pixelSize == PixelSize(width: 3000, height: 4000))
    #expect(header.exif?.taken?.description == "2024-05-01 14:30")
    #expect(header.exif?.model == "Pixel 8")
  }

  /// Drones and multispectral cameras write a TIFF's strips first and IFD0 at the end (DJI),
  /// with the Exif IFD just before it (MicaSense): one more read, at the file's end or at
  /// IFD0 when more follows it.
  @Test(arguments: [(true, 0), (false, 400_000)])
  func aTIFFWhoseIFD0IsPastItsFirstBytesIsDated(
    exifBeforeIFD0: Bool, trailing: Int
  )
    async throws
  {
    typealias Entry = RawFixtures.Entry
    var tiff = RawFixtures.TIFF()
    _ = tiff.append([UInt8](repeating: 0x5A, count: 300_000))
    let taken = Array("2016:01:06 10:11:06".utf8) + [0]
    func exifIFD(_ tiff: inout RawFixtures.TIFF) -> Int {
      let date = tiff.append(taken)
      return tiff.ifd([Entry(tag: 0x9003, type: 2, count: taken.count, value: date)])
    }
    var exif = exifBeforeIFD0 ? exifIFD(&tiff) : 0
    _ = tiff.append([UInt8](repeating: 0x11, count: 600))
    let model = tiff.append(Array("Chlorophyll".utf8) + [0])
    let ifd0 = tiff.ifd([
      .short(256, 1_280), .short(257, 960), Entry(tag: 0x0110, type: 2, count: 12, value: model),
      .short(0x0112, 6), .long(0x8769, exif),
    ])
    if !exifBeforeIFD0 {
      exif = exifIFD(&tiff)
      tiff.patch(at: ifd0 + 2 + 4 * 12 + 8, tiff.u32(exif))
    }
    tiff.setFirstIFD(ifd0)
    _ = tiff.append([UInt8](repeating: 0x22, count: trailing))
    let header = try #require(try await read(tiff.bytes))
    #expect(header.exif?.taken?.descriptionWithSeconds == "2016-01-06 10:11:06")
    #expect(header.exif?.model == "Chlorophyll")
    // Its size too, turned by its orientation (6: a quarter turn).
    #expect(header.pixelSize == PixelSize(width: 960, height: 1_280))
    // An IFD0 offset past the end, or a window that cannot hold the Exif IFD: no date, no trap.
    var forged = tiff.bytes
    forged.replaceSubrange(4..<8, with: tiff.u32(forged.count + 10))
    #expect(try await read(forged)?.exif == nil)
  }

  /// A TIFF written as libtiff writes one (here by ffmpeg's encoder, which does the same):
  /// strips first, IFD0 at the end, 1 MB on. `tessera info` printed no size for any such file.
  @Test func aTIFFWrittenStripsFirstHasItsSize() async throws {
    try await TemporaryFolder.with { folder in
      let path = folder.appendingPathComponent("scan.tif").path
      try TestMedia.make(path, from: "testsrc=size=1000x400", arguments: ["-frames:v", "1"])
      let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
      let ifd0 = bytes[4..<8].reversed().reduce(0) { $0 << 8 | Int($1) }
      #expect(ifd0 > FeedLimits.maxPhotoHeaderBytes, "IFD0 at \(ifd0) of \(bytes.count) bytes")
      let header = LocalPhotoHeaderReader().header(ofFileAt: path)
      #expect(header?.pixelSize == PixelSize(width: 1_000, height: 400))
    }
  }

  /// Samsung writes `mdat` (megabytes) before `meta`: the reader steps over it by its size
  /// and reads `meta` where it starts, then the Exif item back in `mdat`.
  @Test func aHEICWhoseMetaFollowsItsMediaDataIsDated() async throws {
    var fixture = HEIFFixture()
    fixture.exifItem =
      Box.u32(0) + ExifWriter(orientation: 1, dateTaken: "2023:07:14 09:30:00").tiff
    fixture.mediaBeforeMeta = 1_600_000
    let header = try #require(try await read(fixture.bytes))
    #expect(header.pixelSize == PixelSize(width: 4000, height: 3000))
    #expect(header.exif?.taken?.description == "2023-07-14 09:30")
    // With `meta` first, the same file reads the same.
    fixture.mediaBeforeMeta = nil
    #expect(try await read(fixture.bytes)?.exif?.taken?.description == "2023-07-14 09:30")
    // A `meta` beyond what the file holds is not chased.
    var cut = HEIFFixture()
    cut.mediaBeforeMeta = 1_600_000
    let truncated = Array(cut.bytes.prefix(1_000_000))
    #expect(try await read(truncated)?.exif == nil)
  }

  /// An ICC profile and XMP of 50 KB between the EXIF and the frame header: the first read
  /// ends inside them, the second reaches the frame.
  @Test func segmentsPastTheFirstReadAreReadAgainLonger() async throws {
    let file = Self.jpeg(
      exif: ExifWriter(orientation: 1),
      segments: [
        (0xE2, [UInt8](repeating: 0x11, count: 30_000)),
        (
          0xE1,
          Array("http://ns.adobe.com/xap/1.0/\0".utf8) + [UInt8](repeating: 0x20, count: 20_000)
        ),
      ], scanBytes: 400_000)
    let first = Array(file.prefix(LocalPhotoHeaderReader.firstReadBytes))
    #expect(!LocalPhotoHeaderReader.holdsWholeJPEGHeader(first))
    #expect(PhotoHeader(bytes: first).pixelSize == nil)
    let header = try #require(try await read(file))
    #expect(header == PhotoHeader(bytes: Array(file.prefix(FeedLimits.maxPhotoHeaderBytes))))
    #expect(header.pixelSize == PixelSize(width: 4000, height: 3000))
    #expect(header.exif?.taken?.description == "2024-05-01 14:30")
  }

  /// An EXIF segment larger than the first read (a big embedded preview): read again.
  @Test func anExifSegmentLargerThanTheFirstReadIsReadAgain() async throws {
    let file = Self.jpeg(
      exif: ExifWriter(thumbnail: [UInt8](repeating: 0x55, count: 50_000)), segments: [],
      scanBytes: 400_000)
    let header = try #require(try await read(file))
    #expect(header.pixelSize == PixelSize(width: 3000, height: 4000))
    #expect(header.exif?.model == "Pixel 8")
    #expect(header.exif?.orientation == 6)
  }

  /// A phone's own segments (a depth map, a gain map: 150 KB) before its EXIF: the frame
  /// header and the EXIF lie past every fixed read. The walk goes on in the file, stepping
  /// over what it does not need. Before, neither date, camera nor size was read.
  @Test func exifAfterAPhonesOwnSegmentsIsRead() async throws {
    let camera = Self.jpeg(
      exif: ExifWriter(thumbnail: [UInt8](repeating: 0x55, count: 6_000)), segments: [],
      scanBytes: 400_000)
    var own: [UInt8] = []
    let extendedXMP = Array("http://ns.adobe.com/xmp/extension/\0".utf8)
    for (marker, payload) in [
      (UInt8(0xE2), [UInt8](repeating: 0x11, count: 50_000)),
      (0xE9, [UInt8](repeating: 0x22, count: 40_000)),
      (0xE1, extendedXMP + [UInt8](repeating: 0x33, count: 60_000)),
    ] {
      let length = payload.count + 2
      own += [0xFF, marker, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
    }
    let file = [0xFF, 0xD8] + own + Array(camera.dropFirst(2))
    #expect(PhotoHeader(bytes: Array(file.prefix(FeedLimits.maxPhotoHeaderBytes))).exif == nil)
    let header = try #require(try await read(file))
    #expect(header.pixelSize == PixelSize(width: 3000, height: 4000))
    #expect(header.exif?.taken?.description == "2024-05-01 14:30")
    #expect(header.exif?.model == "Pixel 8")
    // The same file cut inside its EXIF: nothing is made up, nothing traps.
    let cut = Array(file.prefix(own.count + 2 + 1_000))
    #expect(try await read(cut)?.exif == nil)
  }

  // MARK: the header: shown size

  @Test(arguments: 1...8)
  func orientationsFiveToEightSwapTheShownSize(orientation: Int) {
    let header = PhotoHeader(bytes: ExifWriter(orientation: orientation).jpeg())
    let expected =
      orientation >= 5
      ? PixelSize(width: 3000, height: 4000) : PixelSize(width: 4000, height: 3000)
    #expect(header.pixelSize == expected)
    #expect(header.exif?.orientation == orientation)
  }
}
