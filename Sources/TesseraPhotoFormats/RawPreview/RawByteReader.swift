/// The locator's only way into a RAW file: reads through the caller's `read(offset, count)`,
/// only ranges wholly inside the file, within a budget of bytes and calls. A RAW is 20–80 MB
/// and its structure is hostile: a forged offset or a loop of IFDs must cost a bounded amount
/// of reading, not the file, and never a trap.
///
/// Every offset and count is checked against the file's size before any arithmetic; a range
/// that reaches past the end is refused (nil) and remembered in ``reachedPastEnd``, so that a
/// truncated copy reads as one ("the file ends early") rather than as a RAW without a preview.
///
/// A class: the walkers of each container share one budget. Not `Sendable`, never stored: it
/// lives for one search on the caller's thread.
///
/// - Complexity: each read is O(bytes read); all reads together are at most ``maxBytes``
///   bytes in at most ``maxReads`` calls.
final class RawByteReader {
  /// Bytes read in one search, all calls together: IFDs (≤ 6 KiB each), box headers, a JPEG's
  /// header segments and CR3's CMT1 need a few hundred KiB at most.
  static let maxBytes = 4 << 20
  /// Calls of `read` in one search.
  static let maxReads = 4_096
  /// Largest file size accepted, 2^48 bytes (256 TiB): offsets from the file (at most 2^32 a
  /// step, a few steps deep) added to positions inside it then stay far from `Int.max`.
  static let maxFileSize = 1 << 48

  /// Why a search stops before it has looked everywhere.
  enum Stop: Error {
    /// ``maxBytes`` or ``maxReads`` reached.
    case budget
    /// `read` returned nil.
    case unreadable
    /// `read` returned fewer bytes than a range inside the file holds: the file shrank.
    case shrank
  }

  let fileSize: Int
  private let read: (Int, Int) -> [UInt8]?
  private(set) var bytesRead = 0
  private(set) var reads = 0
  /// Something the structure named (an IFD, a box, a preview) lies past the file's end.
  var reachedPastEnd = false

  init(fileSize: Int, read: @escaping (Int, Int) -> [UInt8]?) {
    self.fileSize = max(0, fileSize)
    self.read = read
  }

  /// Whether `count` bytes from `offset` lie wholly inside the file (no overflow: both are
  /// compared with the size before they are added).
  func contains(offset: Int, count: Int) -> Bool {
    offset >= 0 && count >= 0 && offset <= fileSize && count <= fileSize - offset
  }

  /// Exactly `count` bytes from `offset`; nil (and ``reachedPastEnd`` set) when they do not
  /// all lie inside the file.
  func bytes(at offset: Int, count: Int) throws(Stop) -> [UInt8]? {
    guard contains(offset: offset, count: count) else {
      reachedPastEnd = true
      return nil
    }
    guard count <= Self.maxBytes - bytesRead, reads < Self.maxReads else { throw .budget }
    bytesRead += count
    reads += 1
    if count == 0 { return [] }
    guard let bytes = read(offset, count) else { throw .unreadable }
    guard bytes.count >= count else { throw .shrank }
    return bytes.count == count ? bytes : Array(bytes.prefix(count))
  }

  /// At most `count` bytes from `offset`: fewer where the file ends, nil when `offset` is at or
  /// past its end (or negative).
  func bytes(at offset: Int, upTo count: Int) throws(Stop) -> [UInt8]? {
    guard offset >= 0, offset < fileSize, count > 0 else { return nil }
    return try bytes(at: offset, count: min(count, fileSize - offset))
  }
}

/// Big- or little-endian integers from bytes already read; nil when they are not all there.
///
/// - Complexity: O(1).
package struct RawEndian {
  package var bigEndian: Bool

  package init(bigEndian: Bool) { self.bigEndian = bigEndian }

  package func u16(_ bytes: [UInt8], _ at: Int) -> Int? {
    guard at >= 0, at <= bytes.count - 2 else { return nil }
    let first = Int(bytes[at])
    let second = Int(bytes[at + 1])
    return bigEndian ? first << 8 | second : second << 8 | first
  }

  /// 0…4,294,967,295: fits an `Int` on the 64-bit platforms Tessera runs on.
  package func u32(_ bytes: [UInt8], _ at: Int) -> Int? {
    guard at >= 0, at <= bytes.count - 4 else { return nil }
    return (0..<4).reduce(0) { sum, index in
      sum << 8 | Int(bytes[at + (bigEndian ? index : 3 - index)])
    }
  }

  /// A 32-bit value read as signed (−2^31…2^31 − 1).
  package func s32(_ bytes: [UInt8], _ at: Int) -> Int? {
    u32(bytes, at).map { Int(Int32(truncatingIfNeeded: $0)) }
  }

  /// `value`'s low 16 bits in this order: what a TIFF writer puts down.
  package func bytes16(_ value: Int) -> [UInt8] {
    let bytes = [UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    return bigEndian ? bytes : bytes.reversed()
  }

  /// `value`'s low 32 bits in this order.
  package func bytes32(_ value: Int) -> [UInt8] {
    let bytes = (0..<4).map { UInt8(value >> (24 - 8 * $0) & 0xFF) }
    return bigEndian ? bytes : bytes.reversed()
  }

  package static let big = RawEndian(bigEndian: true)
  package static let little = RawEndian(bigEndian: false)
}
