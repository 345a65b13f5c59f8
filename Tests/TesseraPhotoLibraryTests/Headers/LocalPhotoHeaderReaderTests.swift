import Foundation
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
}
