/// A place where a frame's bytes may end early, and the bytes that end it there: between two
/// draws, or inside a sixel after one of its six-pixel rows (the sixel is then closed with ST,
/// its rows so far drawn). The frame's text always comes before its first cut, so a frame
/// ended at any cut has all of its text and a prefix of its images
/// (``TerminalRenderer/lastFrameCuts``, ``TerminalRenderer/endLastFrame(at:)``).
///
/// Over a slow link a sixel band of photo-like cells is up to 82 kB, a third of a second at
/// 2 Mbit/s, and nothing can interrupt a sixel the terminal is reading: a key pressed while
/// one goes waits for the rest of it, unless the rest has not left the gallery yet. The run
/// loop writes a frame only as fast as the link's queue takes it (``PacedFrame``) and, when a
/// key comes, ends the frame at its next cut and answers the key.
public struct FrameCut: Sendable, Hashable {
  /// The offset in the frame's bytes where it may end.
  public let offset: Int
  /// The bytes that end it there: ST inside a sixel, the end of synchronized output.
  public let closing: [UInt8]
  /// The frame's draw the cut is in or before (the layer's own numbering).
  let draw: Int
  /// The sixel rows of that draw written before the cut; zero when the cut is before it.
  let rowsDrawn: Int
}

/// A frame being written to a slow link: at once up to its first cut (its text and what goes
/// before its images), then as the link's queue has room, so what the gallery has written and
/// the terminal not yet read stays short, and a key's answer can go ahead of the rest
/// (``endEarly()``).
///
/// - Complexity: O(1) per slice, O(cuts) to end early.
public struct PacedFrame: Sendable {
  public let bytes: [UInt8]
  public let cuts: [FrameCut]
  /// Bytes written so far.
  public private(set) var written = 0

  public init(bytes: [UInt8], cuts: [FrameCut]) {
    self.bytes = bytes
    self.cuts = cuts.filter { $0.offset > 0 && $0.offset < bytes.count }.sorted {
      $0.offset < $1.offset
    }
  }

  public var isDone: Bool { written >= bytes.count }

  /// The next bytes to write when the link can take `room` more (nil: all of them): never less
  /// than what comes before the first cut, which must go whole.
  public mutating func next(room: Int?) -> ArraySlice<UInt8> {
    let start = written
    var end = bytes.count
    if let room {
      let mustGo = written == 0 ? (cuts.first?.offset ?? bytes.count) : 0
      end = min(bytes.count, max(start + max(0, room), mustGo))
    }
    written = end
    return bytes[start..<end]
  }

  /// Ends the frame at its first cut not yet passed: the bytes up to it and its closing, and
  /// the cut taken (nil when none is left, and the rest is returned whole). Nothing is left
  /// to write after it.
  public mutating func endEarly() -> (bytes: [UInt8], cut: FrameCut?) {
    let start = written
    written = bytes.count
    guard let cut = cuts.first(where: { $0.offset >= start }) else {
      return (Array(bytes[start...]), nil)
    }
    return (Array(bytes[start..<cut.offset]) + cut.closing, cut)
  }
}
