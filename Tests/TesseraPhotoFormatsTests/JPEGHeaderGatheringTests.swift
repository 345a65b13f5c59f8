import Testing

@testable import TesseraPhotoFormats

/// The walk past a JPEG's first bytes reads what it needs and steps over the rest: a forged
/// length, a file of fill bytes or a segment past the end ends it, with a bounded number of
/// reads.
@Suite(.timeLimit(.minutes(1))) struct JPEGHeaderGatheringTests {
  static func segment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
    let length = payload.count + 2
    return [0xFF, marker, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
  }

  /// `file` gathered from its first `headCount` bytes; the reads made past them.
  static func gather(_ file: [UInt8], headCount: Int) -> (bytes: [UInt8]?, reads: [Range<Int>]) {
    var reads: [Range<Int>] = []
    let bytes = JPEGHeaderGathering.gather(
      head: Array(file.prefix(headCount)), fileSize: file.count
    ) { offset, count in
      reads.append(offset..<offset + count)
      guard offset >= 0, count >= 0, offset + count <= file.count else { return nil }
      return Array(file[offset..<offset + count])
    }
    return (bytes, reads)
  }

  static let frame = segment(
    0xC0, [8, 0x0F, 0xA0, 0x0B, 0xB8, 3] + [UInt8](repeating: 1, count: 9))

  @Test func onlyTheSegmentsAHeaderNeedsAreReadWhole() throws {
    let exif = Self.segment(0xE1, Array("Exif\0\0".utf8) + [UInt8](repeating: 7, count: 100))
    let big = Self.segment(0xE2, [UInt8](repeating: 0x11, count: 60_000))
    let file = [0xFF, 0xD8] + big + big + exif + Self.frame + [0xFF, 0xDA, 0, 2]
    let (bytes, reads) = Self.gather(file, headCount: 1_000)
    #expect(bytes == [0xFF, 0xD8] + exif + Self.frame)
    // No read is as long as one of the segments stepped over.
    #expect(reads.allSatisfy { $0.count < 1_000 }, "\(reads)")
  }

  @Test func withoutAFrameHeaderNothingIsGathered() {
    let exif = Self.segment(0xE1, Array("Exif\0\0".utf8) + [1, 2, 3, 4])
    #expect(Self.gather([0xFF, 0xD8] + exif + [0xFF, 0xD9], headCount: 4).bytes == nil)
  }

  @Test func fillBytesEndTheWalkAfterABoundedNumberOfReads() {
    let file = [0xFF, 0xD8] + [UInt8](repeating: 0xFF, count: 1_000_000)
    let (bytes, reads) = Self.gather(file, headCount: 64)
    #expect(bytes == nil)
    #expect(reads.count <= JPEGHeaderSegments.maxSegments, "\(reads.count) reads")
  }

  @Test(arguments: [0, 1, 0xFFFF])
  func aForgedLengthEndsTheWalk(length: Int) {
    let forged: [UInt8] = [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)]
    let file = [0xFF, 0xD8] + forged + Self.frame + [UInt8](repeating: 0, count: 100)
    #expect(Self.gather(file, headCount: 4).bytes == nil)
  }

  /// Found by the fuzzer: a frame header whose length runs past the file's end was counted
  /// as found though it was never read, and a JPEG without one was handed on.
  @Test func aFrameHeaderCutByTheEndIsNotFound() {
    let file = [0xFF, 0xD8] + Self.frame.prefix(4) + [UInt8](repeating: 0, count: 100)
    var cut = file
    cut[5] = 200  // claims 200 bytes, 100 follow
    #expect(Self.gather(cut, headCount: 4).bytes == nil)
  }

  @Test func notAJPEGIsNotWalked() {
    #expect(Self.gather([0x89, 0x50, 0x4E, 0x47] + Self.frame, headCount: 4).bytes == nil)
  }
}
