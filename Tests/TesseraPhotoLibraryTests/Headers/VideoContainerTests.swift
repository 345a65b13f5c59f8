import Foundation
import TesseraUtilities
import Testing

@testable import TesseraPhotoFormats
@testable import TesseraPhotoLibrary

/// Which container a file's first bytes are, AVI's main header, and the bounds every
/// container's facts are kept within.
@Suite struct VideoContainerTests {
  @Test func theContainerIsKnownByItsBytesNotItsName() {
    let cases: [([UInt8], VideoContainer?)] = [
      (Box.ftyp("isom"), .isoMedia),
      (Box.ftyp("qt  "), .isoMedia),
      (Box.plain("wide", []) + Box.plain("mdat", []), .isoMedia),
      (Box.plain("moov", Box.mvhd()), .isoMedia),
      (EBML.file([], doctype: "webm"), .matroska),
      (RIFF.avi([]), .avi),
      // Stills: HEIF, AVIF and Canon's CR3 are ISO media too; WebP is RIFF.
      (Box.ftyp("heic"), nil),
      (Box.ftyp("avif"), nil),
      (Box.ftyp("crx "), nil),
      (Array("RIFF".utf8) + RIFF.u32(4) + Array("WEBPVP8 ".utf8), nil),
      ([0xFF, 0xD8, 0xFF, 0xE1], nil),
      ([], nil),
    ]
    for (bytes, expected) in cases {
      #expect(VideoContainer(sniffing: bytes) == expected, "\(bytes.prefix(12))")
    }
  }

  @Test func anAVIsDurationIsFramesTimesTheirLength() {
    let file = RIFF.avi([RIFF.avih(microseconds: 100_000, frames: 30)])
    #expect(AVIHeader.facts(file) == VideoFacts(duration: 3))
    // OpenDML counts every part's frames; avih only the first part's.
    let openDML = RIFF.avi([
      RIFF.avih(microseconds: 40_000, frames: 1_000),
      RIFF.list("strl", [RIFF.chunk("strh", [UInt8](repeating: 0, count: 56))]),
      RIFF.list("odml", [RIFF.chunk("dmlh", RIFF.u32(90_000) + [UInt8](repeating: 0, count: 244))]),
    ])
    #expect(AVIHeader.facts(openDML) == VideoFacts(duration: 3_600))
    #expect(VideoContainer.avi.scan(file, at: 0, fileSize: file.count).facts.duration == 3)
  }

  @Test func aForgedOrCutAVIHeaderIsNotBelieved() {
    // 2^32 − 1 microseconds × 2^32 − 1 frames: clamped to 100 days, no overflow.
    let most = RIFF.avi([RIFF.avih(microseconds: 0xFFFF_FFFF, frames: 0xFFFF_FFFF)])
    #expect(AVIHeader.facts(most).duration == VideoFacts.maxDuration)
    #expect(AVIHeader.facts(RIFF.avi([RIFF.avih(microseconds: 40_000, frames: 0)])) == VideoFacts())
    #expect(AVIHeader.facts(RIFF.avi([])) == VideoFacts())
    // A `hdrl` list claiming 2^32 − 1 bytes: what there is is read.
    var long = RIFF.avi([RIFF.avih(microseconds: 100_000, frames: 30)])
    long.replaceSubrange(16..<20, with: [0xFF, 0xFF, 0xFF, 0xFF])
    #expect(AVIHeader.facts(long) == VideoFacts(duration: 3))
    let file = RIFF.avi([RIFF.avih(microseconds: 100_000, frames: 30)])
    for length in 0..<file.count {
      let facts = AVIHeader.facts(Array(file.prefix(length)))
      #expect(facts == VideoFacts() || facts == VideoFacts(duration: 3), "cut at \(length)")
    }
  }

  @Test func durationsAndDatesAreKeptWithinBounds() {
    #expect(VideoFacts.duration(seconds: 42.504) == 42.5)
    #expect(VideoFacts.duration(seconds: 0.001) == 0.01)
    #expect(VideoFacts.duration(seconds: 1e12) == VideoFacts.maxDuration)
    for seconds in [0, -1, Double.nan, .infinity, -.infinity] {
      #expect(VideoFacts.duration(seconds: seconds) == nil, "\(seconds)")
    }
    #expect(VideoFacts.created(since1970: 0) == nil)
    #expect(VideoFacts.created(since1970: 4_102_444_800) == nil)
    #expect(VideoFacts.created(since1970: VideoMoment.since1970) == VideoMoment.since1970)
  }

  /// The container's time is UTC; the date taken is the wall clock where the process runs.
  @Test func theCreationTimeIsReadOnTheLocalWallClock() throws {
    let paris = try #require(TimeZone(identifier: "Europe/Paris"))
    let header = PhotoHeader(
      video: VideoFacts(duration: 3, created: VideoMoment.since1970), zone: paris)
    #expect(header.exif?.taken?.description == "2021-06-05 12:20")
    #expect(header.duration == 3)
    #expect(header.pixelSize == nil)
    #expect(PhotoHeader(video: VideoFacts()) == PhotoHeader())
  }
}
