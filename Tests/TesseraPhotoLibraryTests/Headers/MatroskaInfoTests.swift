import Foundation
import Testing

@testable import TesseraPhotoFormats
@testable import TesseraPhotoLibrary

/// Matroska and WebM headers built element by element: Info with and without Duration and
/// DateUTC, unknown sizes, Info past the first window, and forged values.
@Suite struct MatroskaInfoTests {
  static func scan(_ file: [UInt8]) -> VideoScan {
    MatroskaInfo.scan(file, at: 0, fileSize: file.count)
  }

  static let seekHead = EBML.element(EBML.seekHead, [UInt8](repeating: 0x42, count: 20))

  /// As ffmpeg writes it: SeekHead, Void, Info (TimecodeScale, Duration, DateUTC), Tracks.
  @Test func infoGivesDurationAndCreationTime() {
    let info = EBML.element(
      MatroskaInfo.ID.info,
      EBML.uint(MatroskaInfo.ID.timecodeScale, 1_000_000)
        + EBML.float64(MatroskaInfo.ID.duration, 42_500)
        + EBML.date)
    let file = EBML.file([
      Self.seekHead, EBML.element(EBML.void, [UInt8](repeating: 0, count: 80)), info,
      EBML.element(EBML.tracks, [1, 2, 3]),
    ])
    #expect(Self.scan(file).facts == VideoFacts(duration: 42.5, created: VideoMoment.since1970))
    // A 4-byte float, and microsecond ticks.
    let micro = EBML.file([
      EBML.element(
        MatroskaInfo.ID.info,
        EBML.uint(MatroskaInfo.ID.timecodeScale, 1_000)
          + EBML.float32(MatroskaInfo.ID.duration, 3_000_000))
    ])
    #expect(Self.scan(micro).facts == VideoFacts(duration: 3))
  }

  /// A browser's MediaRecorder WebM: no Duration, a Segment and Clusters of unknown size.
  @Test func aLiveRecordingHasNoDurationAndUnknownSizes() {
    let file = EBML.file(
      [
        EBML.element(
          MatroskaInfo.ID.info, EBML.uint(MatroskaInfo.ID.timecodeScale, 1_000_000) + EBML.date),
        EBML.element(MatroskaInfo.ID.cluster, [9, 9, 9], unknownSize: true),
      ], doctype: "webm", unknownSegmentSize: true)
    #expect(Self.scan(file).facts == VideoFacts(created: VideoMoment.since1970))
    // Without DateUTC either, and TimecodeScale left at its default.
    let bare = EBML.file([
      EBML.element(MatroskaInfo.ID.info, EBML.float64(MatroskaInfo.ID.duration, 1_500))
    ])
    #expect(Self.scan(bare).facts == VideoFacts(duration: 1.5))
    // An Info of unknown size is read to the window's end.
    let open = EBML.file(
      [
        EBML.element(
          MatroskaInfo.ID.info, EBML.float64(MatroskaInfo.ID.duration, 1_500), unknownSize: true)
      ])
    #expect(Self.scan(open).facts == VideoFacts(duration: 1.5))
  }

  /// Info after a 100 KB element (attachments written first): the walk names Info's offset,
  /// and a window read there gives the facts.
  @Test func infoPastTheFirstWindowIsFoundFurtherOn() throws {
    let info = EBML.element(
      MatroskaInfo.ID.info, EBML.float64(MatroskaInfo.ID.duration, 2_000) + EBML.date)
    let file = EBML.file([
      Self.seekHead, EBML.element(EBML.void, [UInt8](repeating: 0, count: 100_000)), info,
    ])
    let first = MatroskaInfo.scan(Array(file.prefix(4_096)), at: 0, fileSize: file.count)
    #expect(first.facts == VideoFacts())
    let next = try #require(first.next)
    #expect(next == file.count - info.count)
    let further = MatroskaInfo.scan(Array(file[next...]), at: next, fileSize: file.count)
    #expect(further == VideoScan(facts: VideoFacts(duration: 2, created: VideoMoment.since1970)))
  }

  /// Info comes before the first Cluster; an element of unknown size cannot be stepped over.
  @Test func theWalkStopsAtAClusterOrAnUnknownSize() {
    let info = EBML.element(MatroskaInfo.ID.info, EBML.float64(MatroskaInfo.ID.duration, 2_000))
    #expect(
      Self.scan(EBML.file([EBML.element(MatroskaInfo.ID.cluster, [1]), info])) == VideoScan())
    #expect(
      Self.scan(EBML.file([EBML.element(EBML.tracks, [1], unknownSize: true), info]))
        == VideoScan())
  }

  @Test func forgedValuesAreNotBelieved() {
    func facts(_ children: [UInt8]) -> VideoFacts {
      Self.scan(EBML.file([EBML.element(MatroskaInfo.ID.info, children)])).facts
    }
    for ticks in [Double.nan, .infinity, -.infinity, -5, 0] {
      #expect(facts(EBML.float64(MatroskaInfo.ID.duration, ticks)).duration == nil, "\(ticks)")
    }
    // Ticks × scale past 2^64 and past 100 days: clamped.
    #expect(
      facts(
        EBML.uint(MatroskaInfo.ID.timecodeScale, .max, bytes: 8)
          + EBML.float64(MatroskaInfo.ID.duration, 1e200)
      )
      .duration == VideoFacts.maxDuration)
    // TimecodeScale 0 is no scale: the default stands.
    #expect(
      facts(
        EBML.uint(MatroskaInfo.ID.timecodeScale, 0) + EBML.float64(MatroskaInfo.ID.duration, 1_000)
      ).duration == 1)
    // A Duration of 2 bytes, dates of Int64's extremes: not read.
    #expect(facts(EBML.uint(MatroskaInfo.ID.duration, 7, bytes: 2)).duration == nil)
    for nanoseconds in [Int64.min, .max, -978_307_200 * 1_000_000_000] {
      let date = EBML.uint(MatroskaInfo.ID.dateUTC, UInt64(bitPattern: nanoseconds), bytes: 8)
      #expect(facts(date).created == nil, "\(nanoseconds)")
    }
    // A child claiming more than Info holds ends the walk there.
    let forged = EBML.id(MatroskaInfo.ID.duration) + EBML.size(1_000) + [0, 0, 0, 0, 0, 0, 0, 0]
    #expect(facts(forged) == VideoFacts())
    // Not EBML, a Segment missing, an ID of 5 bytes (first byte 0x08).
    #expect(Self.scan(Array("RIFF".utf8)) == VideoScan())
    #expect(Self.scan(EBML.element(MatroskaInfo.ID.ebml, [])) == VideoScan())
    #expect(
      Self.scan(EBML.element(MatroskaInfo.ID.ebml, []) + [0x08, 1, 2, 3, 4, 0x81, 0]) == VideoScan()
    )
  }

  /// Cut anywhere, a file gives its facts or none and names no read past its end.
  @Test func aFileCutAnywhereNeverTraps() {
    let file = EBML.file([
      Self.seekHead,
      EBML.element(MatroskaInfo.ID.info, EBML.float64(MatroskaInfo.ID.duration, 2_000) + EBML.date),
      EBML.element(MatroskaInfo.ID.cluster, [1, 2, 3]),
    ])
    for length in 0...file.count {
      let scan = Self.scan(Array(file.prefix(length)))
      #expect(scan.next == nil, "cut at \(length)")
    }
  }
}
