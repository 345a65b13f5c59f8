import Foundation
import TesseraTestSupport

@testable import TesseraPhotoFormats
@testable import TesseraPhotoLibrary

/// 2021-06-05 10:20:30 UTC, the creation time every fixture and generated clip carries.
enum VideoMoment {
  static let since1970: Int64 = 1_622_888_430
  static let since1904 = UInt64(since1970) + 2_082_844_800
  static let ffmpeg = "2021-06-05T10:20:30Z"
}

extension Box {
  /// A box with a 64-bit `largesize` (size field 1).
  static func large(_ type: String, _ payload: [UInt8]) -> [UInt8] {
    u32(1) + Array(type.utf8) + u64(UInt64(16 + payload.count)) + payload
  }

  /// A movie header, version 0 (32-bit times) or 1 (64-bit), then its rate, volume, matrix
  /// and next track id as a muxer writes them.
  static func mvhd(
    version: Int = 0, creation: UInt64 = VideoMoment.since1904, timescale: Int = 1_000,
    duration: UInt64 = 42_500
  ) -> [UInt8] {
    func time(_ value: UInt64) -> [UInt8] {
      version == 1 ? u64(value) : Array(u64(value).suffix(4))
    }
    let rest = u32(0x0001_0000) + u16(0x0100) + [UInt8](repeating: 0, count: 10 + 36 + 24)
    return full(
      "mvhd", version: version,
      time(creation) + time(creation) + u32(timescale) + time(duration) + rest + u32(2))
  }

  /// A movie: `ftyp`, then `mdat` of `media` bytes before or after `moov`.
  static func movie(moovFirst: Bool, media: Int = 100, mvhd: [UInt8] = Box.mvhd()) -> [UInt8] {
    let moov = plain("moov", mvhd + plain("trak", [UInt8](repeating: 0, count: 40)))
    let mdat = plain("mdat", [UInt8](repeating: 0x5A, count: media))
    return ftyp("isom") + (moovFirst ? moov + mdat : mdat + moov)
  }
}

/// EBML elements built by hand: an ID as written (marker bits included), a size as a
/// variable-length integer.
enum EBML {
  // The IDs the reader looks for are its own (`MatroskaInfo.ID`); these it steps over.
  static let seekHead: UInt64 = 0x114D_9B74
  static let void: UInt64 = 0xEC
  static let tracks: UInt64 = 0x1654_AE6B

  static func id(_ value: UInt64) -> [UInt8] {
    let length = (64 - value.leadingZeroBitCount + 7) / 8
    return (0..<length).map { UInt8(truncatingIfNeeded: value >> UInt64(8 * (length - 1 - $0))) }
  }

  /// A size in 8 bytes (as ffmpeg writes a Segment's), or "unknown" (all ones).
  static func size(_ value: Int?) -> [UInt8] {
    guard let value else { return [0x01, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF] }
    return [0x01] + (1..<8).map { UInt8(truncatingIfNeeded: value >> (8 * (7 - $0))) }
  }

  static func element(_ id: UInt64, _ payload: [UInt8], unknownSize: Bool = false) -> [UInt8] {
    Self.id(id) + size(unknownSize ? nil : payload.count) + payload
  }

  static func uint(_ id: UInt64, _ value: UInt64, bytes: Int = 4) -> [UInt8] {
    element(
      id, (0..<bytes).map { UInt8(truncatingIfNeeded: value >> UInt64(8 * (bytes - 1 - $0))) })
  }

  static func float64(_ id: UInt64, _ value: Double) -> [UInt8] {
    uint(id, value.bitPattern, bytes: 8)
  }

  static func float32(_ id: UInt64, _ value: Float) -> [UInt8] {
    uint(id, UInt64(value.bitPattern), bytes: 4)
  }

  /// DateUTC of `VideoMoment`.
  static let date = uint(
    MatroskaInfo.ID.dateUTC, UInt64(VideoMoment.since1970 - 978_307_200) * 1_000_000_000, bytes: 8)

  /// A file: the EBML header (doc type `doctype`), then a Segment of `children`.
  static func file(
    _ children: [[UInt8]], doctype: String = "matroska", unknownSegmentSize: Bool = false
  ) -> [UInt8] {
    element(MatroskaInfo.ID.ebml, element(0x4282, Array(doctype.utf8)))
      + element(MatroskaInfo.ID.segment, children.flatMap { $0 }, unknownSize: unknownSegmentSize)
  }
}

/// RIFF chunks built by hand (little-endian sizes, a pad byte after odd payloads).
enum RIFF {
  static func u32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(value >> (8 * $0) & 0xFF) } }

  static func chunk(_ type: String, _ payload: [UInt8]) -> [UInt8] {
    Array(type.utf8) + u32(payload.count) + payload + (payload.count % 2 == 1 ? [0] : [])
  }

  static func list(_ type: String, _ children: [[UInt8]]) -> [UInt8] {
    chunk("LIST", Array(type.utf8) + children.flatMap { $0 })
  }

  /// A MainAVIHeader: microseconds a frame and total frames, the rest as a muxer writes it.
  static func avih(microseconds: Int, frames: Int) -> [UInt8] {
    chunk(
      "avih",
      u32(microseconds) + u32(0) + u32(0) + u32(0x10) + u32(frames) + u32(0) + u32(1)
        + u32(0) + u32(320) + u32(240) + [UInt8](repeating: 0, count: 16))
  }

  static func avi(_ headers: [[UInt8]], movieBytes: Int = 64) -> [UInt8] {
    let body =
      Array("AVI ".utf8) + list("hdrl", headers)
      + list("movi", [chunk("00dc", [UInt8](repeating: 0x11, count: movieBytes))])
    return Array("RIFF".utf8) + u32(body.count) + body
  }
}

/// Clips made by ffmpeg at test time (`TestMedia`), 3 s of a test card with `VideoMoment` as
/// their creation time.
enum GeneratedVideo {
  /// Whether the ffmpeg `TestMedia` runs is installed (Debian's, as the install script
  /// installs it).
  static let canMake = FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpeg")

  /// Writes `path` (its extension picks the container), `options` before the output.
  static func make(_ path: String, size: String = "320x240", options: [String] = []) throws {
    try TestMedia.make(
      path, from: "testsrc=duration=3:size=\(size):rate=10",
      arguments: ["-pix_fmt", "yuv420p", "-metadata", "creation_time=\(VideoMoment.ffmpeg)"]
        + options)
  }
}
