import TesseraUtilities

/// An MP4, M4V or QuickTime movie's duration and creation time, from its movie header:
/// `moov` → `mvhd` (ISO/IEC 14496-12 §8.2.2; QuickTime's own is the same box), version 0
/// (32-bit times) or 1 (64-bit), times in seconds since 1904-01-01 UTC, 0 meaning unknown.
///
/// A camera that records to a file cannot know the movie's length until it stops, so phones
/// write `moov` after the media data (`mdat`), which may be gigabytes. The top-level walk
/// therefore steps from box header to box header by their sizes, and when a box runs past
/// the window it says where the next one starts (`VideoScan.next`): the header reader reads
/// a small window there, so a moov at the end costs one more read, not the file.
///
/// - Complexity: O(top-level boxes walked), at most ``maxBoxes`` a window, plus
///   O(`moov`'s children before `mvhd`), at most `FeedLimits.maxHEIFBoxes`.
enum QuickTimeMovie {
  /// Top-level boxes walked in one window: a movie has a handful (`ftyp`, `wide`, `free`,
  /// `mdat`, `moov`, `udta`, `uuid`…).
  static let maxBoxes = 64

  /// Seconds from 1904-01-01 (the epoch of ISO media and QuickTime times) to 1970-01-01.
  static let secondsFrom1904To1970: UInt64 = 2_082_844_800

  /// The facts in `window`, a file of `fileSize` bytes from `offset` on, where a top-level
  /// box starts. Every size is checked against the bytes the file has left before it is
  /// added: a box may not claim to end past the file, and size 0 runs to the file's end.
  static func scan(_ window: [UInt8], at offset: Int, fileSize: Int) -> VideoScan {
    guard offset >= 0, offset <= fileSize else { return VideoScan() }
    // A box cut by the window's end is read again from its start, unless the file ends
    // there too or the window began with it (a read at the same place finds the same).
    let windowEndsEarly = window.count < fileSize - offset
    var index = 0
    for _ in 0..<maxBoxes {
      let start = offset + index
      guard start < fileSize else { return VideoScan() }
      guard index < window.count else { return VideoScan(next: start) }
      var cursor = ByteCursor(window, range: index..<window.count)
      guard let size32 = cursor.unsigned(size: 4), let type = cursor.fourCC(),
        let size = size32 == 1 ? cursor.unsigned(size: 8) : size32
      else { return VideoScan(next: windowEndsEarly && index > 0 ? start : nil) }
      let headerLength = UInt64(cursor.position - index)
      let left = UInt64(fileSize - start)
      let length = size32 == 0 ? left : size
      guard length >= headerLength, length <= left else { return VideoScan() }
      if type == "moov" {
        return movie(window, box: index..<(index + Int(length)), headerLength: Int(headerLength))
          ?? VideoScan(
            next: windowEndsEarly && index > 0 && index + Int(length) > window.count ? start : nil)
      }
      index += Int(length)  // at most the file's size: no overflow
    }
    return VideoScan()
  }

  /// The facts of the `moov` box at `box` (a range that may run past the window), when its
  /// `mvhd` lies whole within the window; nil when it does not.
  private static func movie(_ window: [UInt8], box: Range<Int>, headerLength: Int) -> VideoScan? {
    let payload = (box.lowerBound + headerLength)..<min(box.upperBound, window.count)
    let children = ISOBoxes.children(of: payload, in: window, depth: 1)
    guard let header = children.first(where: { $0.type == "mvhd" && $0.complete }) else {
      return nil
    }
    return VideoScan(facts: facts(ofMovieHeader: Array(window[header.payload])))
  }

  /// The facts of an `mvhd` box's payload: duration ÷ timescale, and the creation time.
  /// A duration of all ones is "unknown" (an indefinite movie), as is a timescale of 0.
  static func facts(ofMovieHeader payload: [UInt8]) -> VideoFacts {
    var cursor = ByteCursor(payload, range: 0..<payload.count)
    guard let version = cursor.fullBoxVersion(), version <= 1 else { return VideoFacts() }
    let width = version == 1 ? 8 : 4
    guard let creation = cursor.unsigned(size: width), cursor.skip(width),
      let timescale = cursor.unsigned(size: 4), let duration = cursor.unsigned(size: width)
    else { return VideoFacts() }
    var facts = VideoFacts()
    let unknown = version == 1 ? UInt64.max : UInt64(UInt32.max)
    if timescale > 0, duration != unknown {
      facts.duration = VideoFacts.duration(seconds: Double(duration) / Double(timescale))
    }
    // Compared before subtracting: a forged 64-bit time neither wraps nor traps.
    if creation > secondsFrom1904To1970, creation - secondsFrom1904To1970 <= UInt64(Int64.max) {
      facts.created = VideoFacts.created(since1970: Int64(creation - secondsFrom1904To1970))
    }
    return facts
  }
}
