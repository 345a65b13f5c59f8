import Foundation
import TesseraTestSupport
import TesseraUtilities
import Testing

@testable import TesseraPhotoLibrary

/// Real clips in every container the gallery lists, made by ffmpeg at test time with a
/// creation time, read through `LocalPhotoHeaderReader` as the library reads them.
@Suite(
  .timeLimit(.minutes(2)),
  .enabled(if: GeneratedVideo.canMake, "ffmpeg is not installed (Debian's ffmpeg package)"))
struct GeneratedVideoHeaderTests {
  static let taken = WallClockTime(Date(timeIntervalSince1970: TimeInterval(VideoMoment.since1970)))

  /// The header of the clip ffmpeg writes to `name` with `options`.
  static func header(
    _ name: String, size: String = "320x240", options: [String] = []
  ) async throws -> PhotoHeader {
    try await TemporaryFolder.with { folder in
      let path = folder.appendingPathComponent(name).path
      try GeneratedVideo.make(path, size: size, options: options)
      return try #require(LocalPhotoHeaderReader().header(ofFileAt: path))
    }
  }

  static func expectThreeSeconds(_ header: PhotoHeader, dated: Bool = true) {
    let duration = header.duration ?? 0
    #expect(abs(duration - 3) <= 0.15, "duration \(duration)")
    #expect(header.exif?.taken == (dated ? Self.taken : nil))
    #expect(header.pixelSize == nil)
  }

  @Test(arguments: [
    ("clip.mp4", [String]()), ("fast-start.mp4", ["-movflags", "+faststart"]),
    ("clip.mov", []), ("clip.m4v", []), ("clip.mkv", []),
    ("clip.webm", ["-c:v", "libvpx", "-b:v", "200k", "-deadline", "realtime"]),
  ])
  func aClipsDurationAndCreationTimeAreRead(name: String, options: [String]) async throws {
    Self.expectThreeSeconds(try await Self.header(name, options: options))
  }

  /// AVI keeps no creation instant (its dates are free text): the duration alone.
  @Test func anAVIsDurationIsRead() async throws {
    Self.expectThreeSeconds(try await Self.header("clip.avi"), dated: false)
  }

  /// A clip of ~700 KB whose `moov` ffmpeg writes after `mdat`, as a phone does: far past
  /// the first bytes read; and the same in Matroska, whose Info comes first.
  @Test(arguments: ["late-moov.mp4", "large.mkv"])
  func aLargeClipsHeaderIsReadPastItsFirstBytes(name: String) async throws {
    let header = try await Self.header(
      name, size: "640x480", options: ["-c:v", "mjpeg", "-q:v", "2"])
    Self.expectThreeSeconds(header)
  }

  /// The container is known by its bytes: an MP4 named `.avi` is read as the MP4 it is.
  @Test func aMisnamedClipIsReadByItsBytes() async throws {
    try await TemporaryFolder.with { folder in
      let made = folder.appendingPathComponent("made.mp4").path
      try GeneratedVideo.make(made)
      let misnamed = folder.appendingPathComponent("clip.avi").path
      try FileManager.default.moveItem(atPath: made, toPath: misnamed)
      Self.expectThreeSeconds(try #require(LocalPhotoHeaderReader().header(ofFileAt: misnamed)))
    }
  }
}
