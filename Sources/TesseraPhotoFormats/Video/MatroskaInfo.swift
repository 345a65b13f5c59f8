import TesseraUtilities

/// A Matroska or WebM file's duration and creation time, from its Segment's Info element
/// (RFC 9559 §5.1.2): TimecodeScale (nanoseconds a tick, 1,000,000 when absent), Duration (a
/// 4- or 8-byte float, in ticks) and DateUTC (signed nanoseconds since 2001-01-01 UTC).
///
/// EBML elements are an ID and a size, both variable-length integers; a size of all ones is
/// "unknown" (a live recording's Segment or Cluster). Muxers write Info before the first
/// Cluster, within the first kilobytes, so the walk stops at a Cluster; when an element
/// before Info runs past the window (large attachments), it says where the next one starts.
/// Only three levels are entered (EBML header, Segment, Info), so no nesting can go deep.
///
/// - Complexity: O(elements walked), at most ``maxElements`` a window.
enum MatroskaInfo {
  /// Elements looked at in one window, at each of the two levels walked.
  static let maxElements = 256

  /// Seconds from 1970-01-01 to 2001-01-01, Matroska's epoch.
  static let secondsFrom1970To2001: Int64 = 978_307_200

  /// The element IDs read, as RFC 9559 writes them (length marker included).
  enum ID {
    static let ebml: UInt64 = 0x1A45_DFA3
    static let segment: UInt64 = 0x1853_8067
    static let info: UInt64 = 0x1549_A966
    static let cluster: UInt64 = 0x1F43_B675
    static let timecodeScale: UInt64 = 0x2A_D7B1
    static let duration: UInt64 = 0x4489
    static let dateUTC: UInt64 = 0x4461
  }

  /// An element's header: its ID (marker bits kept, as specifications write IDs), its
  /// payload's size (nil: unknown) and the header's length.
  struct Element: Equatable {
    var id: UInt64
    var size: UInt64?
    var headerLength: Int
  }

  /// The facts in `window`, a file of `fileSize` bytes from `offset` on: at offset 0 the
  /// file's start (EBML header, then the Segment), elsewhere a Segment's child element.
  static func scan(_ window: [UInt8], at offset: Int, fileSize: Int) -> VideoScan {
    guard offset >= 0, offset <= fileSize else { return VideoScan() }
    // As in `QuickTimeMovie.scan`: an element cut by the window's end (not the file's) is
    // read again from its start, unless the window began with it.
    let windowEndsEarly = window.count < fileSize - offset
    var index = 0
    if offset == 0 {
      guard let ebml = element(window, at: 0), ebml.id == ID.ebml, let size = ebml.size,
        size <= UInt64(window.count - ebml.headerLength)
      else { return VideoScan() }
      index = ebml.headerLength + Int(size)
      guard let segment = element(window, at: index), segment.id == ID.segment else {
        return VideoScan()
      }
      index += segment.headerLength
    }
    for _ in 0..<maxElements {
      let start = offset + index
      guard start < fileSize else { return VideoScan() }
      guard index < window.count else { return VideoScan(next: start) }
      guard let child = element(window, at: index) else {
        // Cut (or malformed: the read on then finds the same and ends).
        return VideoScan(next: windowEndsEarly && index > 0 ? start : nil)
      }
      let payloadStart = index + child.headerLength
      let left = UInt64(max(0, fileSize - start - child.headerLength))
      if child.id == ID.info {
        let end = child.size.map { payloadStart + Int(min($0, left)) } ?? window.count
        let facts = info(window, payloadStart..<min(end, window.count))
        let cut = windowEndsEarly && end > window.count
        return VideoScan(
          facts: facts, next: facts == VideoFacts() && cut && index > 0 ? start : nil)
      }
      guard child.id != ID.cluster, let size = child.size, size <= left else {
        return VideoScan()
      }
      index = payloadStart + Int(size)  // at most the file's size: no overflow
    }
    return VideoScan()
  }

  /// The facts among Info's children in `range` of `window`.
  static func info(_ window: [UInt8], _ range: Range<Int>) -> VideoFacts {
    var scale: UInt64 = 1_000_000
    var ticks: Double?
    var facts = VideoFacts()
    var index = range.lowerBound
    for _ in 0..<maxElements {
      guard let child = element(window, at: index, end: range.upperBound),
        let size = child.size, size <= UInt64(range.upperBound - index - child.headerLength)
      else { break }
      var cursor = ByteCursor(window, range: (index + child.headerLength)..<range.upperBound)
      switch (child.id, size) {
      case (ID.timecodeScale, 1...8):
        if let value = cursor.unsigned(size: Int(size)), value > 0 { scale = value }
      case (ID.duration, 4):
        ticks = cursor.unsigned(size: 4).map { Double(Float(bitPattern: UInt32($0))) }
      case (ID.duration, 8):
        ticks = cursor.unsigned(size: 8).map { Double(bitPattern: $0) }
      case (ID.dateUTC, 8):
        if let bits = cursor.unsigned(size: 8) {
          // Floor division: a date before 2001 falls on the right second.
          let nanoseconds = Int64(bitPattern: bits)
          let seconds =
            nanoseconds >= 0 ? nanoseconds / 1_000_000_000 : (nanoseconds + 1) / 1_000_000_000 - 1
          facts.created = VideoFacts.created(since1970: seconds + secondsFrom1970To2001)
        }
      default: break
      }
      index += child.headerLength + Int(size)
    }
    // In Double: ticks × scale may pass 2^64, and NaN or infinities are refused after.
    if let ticks { facts.duration = VideoFacts.duration(seconds: ticks * Double(scale) / 1e9) }
    return facts
  }

  /// The element header at `index`, within `end` (the window's end unless given); nil when
  /// it is cut or its variable-length integers are malformed (an ID longer than 4 bytes).
  static func element(_ bytes: [UInt8], at index: Int, end: Int? = nil) -> Element? {
    let end = min(end ?? bytes.count, bytes.count)
    guard let id = variableInteger(bytes, at: index, end: end, maxLength: 4),
      let size = variableInteger(bytes, at: index + id.length, end: end, maxLength: 8)
    else { return nil }
    let allOnes = (UInt64(1) << UInt64(7 * size.length)) - 1
    let payload = size.value & allOnes
    return Element(
      id: id.value, size: payload == allOnes ? nil : payload,
      headerLength: id.length + size.length)
  }

  /// An EBML variable-length integer at `index`: its length is the leading zero bits of its
  /// first byte plus one. The value keeps the length marker; sizes mask it off.
  private static func variableInteger(
    _ bytes: [UInt8], at index: Int, end: Int, maxLength: Int
  ) -> (value: UInt64, length: Int)? {
    guard index >= 0, index < end, bytes[index] != 0 else { return nil }
    let length = bytes[index].leadingZeroBitCount + 1
    guard length <= maxLength, length <= end - index else { return nil }
    let value = bytes[index..<(index + length)].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
    return (value, length)
  }
}
