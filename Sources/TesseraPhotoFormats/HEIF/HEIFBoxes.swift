import TesseraUtilities

/// A four-character box or item type of ISO base media files ("meta", "Exif").
struct FourCC: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
  let value: UInt32

  init(value: UInt32) { self.value = value }

  /// The code of a four-ASCII-character literal; anything else is the code 0, never a trap.
  init(stringLiteral text: StaticString) {
    let bytes = text.withUTF8Buffer { Array($0) }
    value = bytes.count == 4 ? bytes.reduce(0) { $0 << 8 | UInt32($1) } : 0
  }

  var description: String {
    String(
      decoding: (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) }, as: UTF8.self)
  }
}

/// Big-endian reads from hostile bytes within `position..<end`: every read checks the bytes
/// are there first, and a failed read returns nil and moves nothing.
///
/// - Complexity: O(1) per read.
struct ByteCursor {
  let bytes: [UInt8]
  private(set) var position: Int
  let end: Int

  /// A cursor over `range`, cut to the bytes there are.
  init(_ bytes: [UInt8], range: Range<Int>) {
    self.bytes = bytes
    end = range.upperBound.clamped(to: 0...bytes.count)
    position = range.lowerBound.clamped(to: 0...end)
  }

  var remaining: Int { end - position }

  /// Moves past `count` bytes when they are all there.
  @discardableResult
  mutating func skip(_ count: Int) -> Bool {
    guard count >= 0, count <= remaining else { return false }
    position += count
    return true
  }

  /// An unsigned big-endian number of `size` bytes (0…8; 0 reads as 0, as ISO BMFF's
  /// variable-size fields mean).
  mutating func unsigned(size: Int) -> UInt64? {
    guard (0...8).contains(size), size <= remaining else { return nil }
    let value = bytes[position..<position + size].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
    position += size
    return value
  }

  /// An unsigned number of `size` bytes (0…4), which always fits an `Int` on 64-bit platforms.
  mutating func int(size: Int) -> Int? {
    guard size <= 4, let value = unsigned(size: size) else { return nil }
    return Int(value)
  }

  mutating func u8() -> Int? { int(size: 1) }
  mutating func u16() -> Int? { int(size: 2) }
  mutating func u32() -> Int? { int(size: 4) }

  mutating func fourCC() -> FourCC? {
    guard let value = unsigned(size: 4) else { return nil }
    return FourCC(value: UInt32(truncatingIfNeeded: value))
  }

  /// The bytes before the next NUL, which is passed; nil (nothing moved) when no NUL comes
  /// within `limit` bytes or the bytes there are.
  mutating func nulTerminated(limit: Int) -> ArraySlice<UInt8>? {
    let window = bytes[position..<position + min(remaining, max(0, limit))]
    guard let nul = window.firstIndex(of: 0) else { return nil }
    defer { position = nul + 1 }
    return bytes[position..<nul]
  }

  /// A full box's version (its first byte); the 24 flag bits after it are skipped.
  mutating func fullBoxVersion() -> Int? {
    guard remaining >= 4, let version = u8() else { return nil }
    skip(3)
    return version
  }
}

/// One ISO base media box: its type and where its payload lies in the bytes read.
struct ISOBox: Equatable {
  var type: FourCC
  /// The bytes after the box header, cut to the bytes there are.
  var payload: Range<Int>
  /// False when the box claimed more bytes than its container (or the bytes read) holds; its
  /// payload is then what there is.
  var complete: Bool
  /// Where the box says it ends, counted as its payload is (past the bytes read when
  /// incomplete): where the next box starts.
  var declaredEnd: UInt64 = 0
}

/// The boxes that follow one another in a container: ISO/IEC 14496-12 §4.2, 32-bit sizes,
/// 64-bit `largesize` (size 1), size 0 "to the end", `uuid` extended types.
///
/// Every size is compared with the bytes that remain before it is added to anything, so a
/// forged size can neither overflow nor point outside the container: a box claiming more than
/// there is becomes the container's last box, cut short and marked incomplete.
enum ISOBoxes {
  /// The boxes in `range` of `bytes` at nesting level `depth` (0 for the file's top level):
  /// at most `FeedLimits.maxHEIFBoxes`, none below `FeedLimits.maxHEIFBoxDepth`.
  ///
  /// - Complexity: O(boxes returned).
  static func children(of range: Range<Int>, in bytes: [UInt8], depth: Int) -> [ISOBox] {
    guard (0...FeedLimits.maxHEIFBoxDepth).contains(depth) else { return [] }
    var cursor = ByteCursor(bytes, range: range)
    var boxes: [ISOBox] = []
    while cursor.remaining >= 8, boxes.count < FeedLimits.maxHEIFBoxes {
      let start = cursor.position
      let available = UInt64(cursor.remaining)
      guard let size32 = cursor.unsigned(size: 4), let type = cursor.fourCC() else { break }
      var size = size32
      if size32 == 1 {
        guard let large = cursor.unsigned(size: 8) else { break }
        size = large
      } else if size32 == 0 {
        size = available
      }
      if type == "uuid", !cursor.skip(16) { break }
      let headerLength = UInt64(cursor.position - start)
      guard size >= headerLength else { break }
      let complete = size <= available
      let length = Int(min(size, available))  // at most the bytes there are: fits an Int
      boxes.append(
        ISOBox(
          type: type, payload: cursor.position..<(start + length), complete: complete,
          declaredEnd: size > UInt64.max - UInt64(start) ? .max : UInt64(start) + size))
      guard complete else { break }
      cursor = ByteCursor(bytes, range: (start + length)..<cursor.end)
    }
    return boxes
  }
}
