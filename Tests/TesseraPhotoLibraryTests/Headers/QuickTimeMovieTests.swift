import Foundation
import TesseraTestSupport
import Testing

@testable import TesseraPhotoFormats
@testable import TesseraPhotoLibrary

/// MP4 and QuickTime movie headers built box by box: both `mvhd` versions, `moov` before and
/// after the media data (also past the first window), 64-bit and to-the-end sizes, and
/// forged or cut boxes, which read as no facts and never trap.
@Suite struct QuickTimeMovieTests {
  static let expected = VideoFacts(duration: 42.5, created: VideoMoment.since1970)

  /// The facts of `file` read as the header reader reads it: the first `window` bytes, then
  /// a window at each offset the walk names.
  static func facts(
    _ file: [UInt8], window: Int = 32 * 1024, fileSize: Int? = nil
  )
    -> VideoFacts
  {
    let size = fileSize ?? file.count
    var scan = QuickTimeMovie.scan(Array(file.prefix(window)), at: 0, fileSize: size)
    var facts = scan.facts
    var reached = 0
    while let next = scan.next, next > reached, next < file.count {
      reached = next
      scan = QuickTimeMovie.scan(Array(file[next...].prefix(window)), at: next, fileSize: size)
      facts.merge(scan.facts)
    }
    return facts
  }

  @Test func bothMovieHeaderVersionsGiveDurationAndCreationTime() {
    for version in [0, 1] {
      let movie = Box.movie(moovFirst: true, mvhd: Box.mvhd(version: version))
      #expect(Self.facts(movie) == Self.expected, "version \(version)")
    }
    // Version 1's 64-bit fields: a 90 kHz timescale over 2^32 ticks (13 h 15 min 23 s).
    let long = Box.mvhd(version: 1, timescale: 90_000, duration: 4_294_967_296 + 90_000)
    let facts = Self.facts(Box.movie(moovFirst: true, mvhd: long))
    #expect(facts.duration == 47_722.86)
    #expect(facts.created == VideoMoment.since1970)
  }

  /// An image sequence (AVIF `avis`, HEIF `msf1`) is a still-image file by its brand and a
  /// movie by its boxes: without EXIF, its movie header dates it, also past the first read.
  /// Before, such a file had no date.
  @Test(arguments: ["avis", "msf1"]) func anImageSequenceIsDatedByItsMovieHeader(
    brand: String
  ) async throws {
    let movie = Box.movie(moovFirst: false, media: 300_000)
    let sequence = Box.ftyp(brand) + Array(movie.dropFirst(Box.ftyp("isom").count))
    #expect(VideoContainer(sniffing: sequence) == nil)
    #expect(ImageSequence(sequence)?.kind == .isoSequence)
    let header = try await ContainerDateTests.read(sequence, as: "burst.\(brand)")
    let expected = WallClockTime(Date(timeIntervalSince1970: TimeInterval(VideoMoment.since1970)))
    #expect(header?.exif?.taken == expected)
    // It plays (through ffmpeg): the tile says ↻.
    #expect(header?.isAnimated == true)
    // A still HEIF (brand heic, mif1 compatible) is never read as a movie.
    #expect(ImageSequence(Box.ftyp("heic")) == nil)
  }

  /// A phone's layout: `mdat` first. Within the first window it is stepped over; past it,
  /// the walk names `moov`'s offset and one more window reads it.
  @Test func aMoovAfterTheMediaDataIsFoundFurtherOn() {
    #expect(Self.facts(Box.movie(moovFirst: false)) == Self.expected)
    let file = Box.movie(moovFirst: false, media: 200_000)
    let first = QuickTimeMovie.scan(Array(file.prefix(4_096)), at: 0, fileSize: file.count)
    #expect(first.facts == VideoFacts())
    #expect(first.next == Box.ftyp("isom").count + 8 + 200_000)
    #expect(Self.facts(file, window: 4_096) == Self.expected)
  }

  /// A phone's 8-GiB clip (a sparse file: no disk is spent), larger than any photo may be,
  /// with `moov` at its end: read by the header reader in its first bytes and one window.
  @Test func aMultiGigabyteClipIsReadAtItsEnd() async throws {
    try await TemporaryFolder.with { folder in
      let path = folder.appendingPathComponent("phone.mp4").path
      let media: UInt64 = 8 << 30
      let head = Box.ftyp("isom") + Box.u32(1) + Array("mdat".utf8) + Box.u64(16 + media)
      try Data(head).write(to: URL(fileURLWithPath: path))
      let file = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
      try file.seek(toOffset: UInt64(head.count) + media)
      try file.write(contentsOf: Data(Box.plain("moov", Box.mvhd())))
      try file.close()
      let header = try #require(LocalPhotoHeaderReader().header(ofFileAt: path))
      #expect(header == PhotoHeader(video: Self.expected))
    }
  }

  /// `mdat` with a 64-bit `largesize`: 5 GiB of media before `moov`, past 32 bits.
  @Test func aLargeSizeMediaBoxIsSteppedOver() {
    #expect(
      Self.facts(Box.ftyp("isom") + Box.large("mdat", [1, 2, 3]) + Box.plain("moov", Box.mvhd()))
        == Self.expected)
    let fiveGiB: UInt64 = 5 << 30
    let head = Box.ftyp("isom") + Box.u32(1) + Array("mdat".utf8) + Box.u64(fiveGiB)
    let scan = QuickTimeMovie.scan(head, at: 0, fileSize: 6 << 30)
    #expect(scan.next == Box.ftyp("isom").count + Int(fiveGiB))
    // The same box in a file too short for it is forged: nothing, and no read on.
    #expect(QuickTimeMovie.scan(head, at: 0, fileSize: 4 << 30) == VideoScan())
  }

  /// Size 0 runs to the end of the file: an `mdat` so is the last box (no movie header), a
  /// `moov` so is read.
  @Test func aBoxOfSizeZeroRunsToTheEnd() {
    let open = Box.ftyp("isom") + Box.u32(0) + Array("mdat".utf8) + [UInt8](repeating: 7, count: 64)
    #expect(QuickTimeMovie.scan(open, at: 0, fileSize: open.count) == VideoScan())
    let moov = Box.ftyp("isom") + Box.u32(0) + Array("moov".utf8) + Box.mvhd()
    #expect(Self.facts(moov) == Self.expected)
  }

  /// Whatever the cut, a shortened movie gives its facts or none, and a read on only where
  /// the file goes on.
  @Test func aMovieCutAnywhereNeverTraps() {
    let file = Box.movie(moovFirst: false)
    for length in 0...file.count {
      let cut = Array(file.prefix(length))
      let scan = QuickTimeMovie.scan(cut, at: 0, fileSize: cut.count)
      #expect(scan.facts == VideoFacts() || length == file.count, "cut at \(length)")
      #expect(scan.next == nil, "cut at \(length)")
    }
  }

  @Test func forgedSizesAndValuesAreNotBelieved() {
    let ftyp = Box.ftyp("isom")
    // A size below its own header, one past the file's end, a largesize of 2^64 − 1.
    for forged in [
      Box.u32(4) + Array("free".utf8), Box.u32(1_000) + Array("free".utf8),
      Box.u32(1) + Array("mdat".utf8) + Box.u64(.max),
    ] {
      let file = ftyp + forged + Box.plain("moov", Box.mvhd())
      #expect(QuickTimeMovie.scan(file, at: 0, fileSize: file.count) == VideoScan())
    }
    func header(_ mvhd: [UInt8]) -> VideoFacts {
      QuickTimeMovie.facts(ofMovieHeader: Array(mvhd.dropFirst(8)))
    }
    // Timescale 0, an all-ones ("unknown") duration: no duration.
    #expect(header(Box.mvhd(timescale: 0)).duration == nil)
    #expect(header(Box.mvhd(duration: 0xFFFF_FFFF)).duration == nil)
    #expect(header(Box.mvhd(version: 1, duration: .max)).duration == nil)
    // Longer than 100 days: clamped.
    #expect(
      header(Box.mvhd(version: 1, timescale: 1, duration: .max - 1)).duration
        == VideoFacts.maxDuration)
    // Creation 0 (unknown), 1904 itself, before 1970, after 2100, 2^64 − 1: no date.
    for creation: UInt64 in [0, 1, 2_082_844_800, 2_082_844_800 + 4_102_444_800, .max] {
      #expect(header(Box.mvhd(version: 1, creation: creation)).created == nil, "\(creation)")
    }
    #expect(header(Box.mvhd(version: 2)) == VideoFacts())
    #expect(header(Array(Box.mvhd().prefix(20))) == VideoFacts())
  }

  /// Top-level boxes are walked at most `maxBoxes` a window: a file of many tiny boxes
  /// before its movie ends the walk there.
  @Test func theWalkIsBounded() {
    let boxes = (0..<QuickTimeMovie.maxBoxes).flatMap { _ in Box.plain("free", []) }
    let file = Box.ftyp("isom") + boxes + Box.plain("moov", Box.mvhd())
    #expect(QuickTimeMovie.scan(file, at: 0, fileSize: file.count) == VideoScan())
    let fewer = Box.ftyp("isom") + boxes.dropFirst(16) + Box.plain("moov", Box.mvhd())
    #expect(Self.facts(fewer) == Self.expected)
  }
}
