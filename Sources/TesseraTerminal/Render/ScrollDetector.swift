/// Finds a vertical shift between two frames, so the terminal can scroll a region (DECSTBM
/// with SU/SD: a few bytes) instead of the renderer rewriting every moved cell.
///
/// Rows are compared by hash; each row of the new frame votes for the offsets at which the
/// old frame had an identical row. O(width × height) hashing plus O(height × duplicates).
enum ScrollDetector {
  /// Rows `top...bottom` (inclusive) move by `distance`: positive is up (content scrolled
  /// towards the top, as when moving down a list), negative down.
  struct Scroll: Hashable {
    var top: Int
    var bottom: Int
    var distance: Int
  }

  static func rowHashes(_ frame: FrameBuffer) -> [Int] {
    (0..<frame.height).map { row in
      var hasher = Hasher()
      let start = row * frame.width
      for index in start..<(start + frame.width) { hasher.combine(frame.cells[index]) }
      return hasher.finalize()
    }
  }

  /// The hash of a row of blank cells `width` wide: such rows never vote (every empty row
  /// matches every other).
  static func blankRowHash(width: Int) -> Int {
    var blank = Hasher()
    for _ in 0..<width { blank.combine(Cell.blank) }
    return blank.finalize()
  }

  static func detect(previous: FrameBuffer, next: FrameBuffer) -> Scroll? {
    guard previous.width == next.width, previous.height == next.height else { return nil }
    return detect(
      previous: rowHashes(previous), next: rowHashes(next),
      blank: blankRowHash(width: next.width))
  }

  /// The shift between two screens given as one hash per row (text, and for sixel what
  /// image covers the row), rows hashing to `blank` not voting.
  static func detect(previous old: [Int], next new: [Int], blank blankHash: Int) -> Scroll? {
    guard old.count == new.count, new.count > 2 else { return nil }
    var rowsByHash: [Int: [Int]] = [:]
    for (row, hash) in old.enumerated() where hash != blankHash {
      rowsByHash[hash, default: []].append(row)
    }
    var votes: [Int: Int] = [:]
    var unchanged = 0
    for (row, hash) in new.enumerated() where hash != blankHash {
      if old[row] == hash { unchanged += 1 }
      for source in rowsByHash[hash] ?? [] where source != row {
        votes[source - row, default: 0] += 1
      }
    }
    guard
      let (distance, count) = votes.max(by: { ($0.value, -abs($0.key)) < ($1.value, -abs($1.key)) }
      ),
      count >= max(2, new.count / 4), count > unchanged
    else { return nil }
    // The region spans the rows that moved, and the rows they came from.
    var top = Int.max
    var bottom = Int.min
    for (row, hash) in new.enumerated() where hash != blankHash {
      let source = row + distance
      guard source >= 0, source < old.count, old[source] == hash else { continue }
      top = min(top, min(row, source))
      bottom = max(bottom, max(row, source))
    }
    guard top < bottom, abs(distance) <= bottom - top else { return nil }
    return Scroll(top: top, bottom: bottom, distance: distance)
  }

  /// `frame` as the terminal shows it after `scroll`: rows shifted, new rows blank.
  static func apply(_ scroll: Scroll, to frame: FrameBuffer) -> FrameBuffer {
    var result = frame
    let rows = scroll.top...scroll.bottom
    for row in rows {
      let source = row + scroll.distance
      for column in 0..<frame.width {
        let cell = rows.contains(source) ? frame[column, source] : Cell.blank
        result.set(cell, x: column, y: row)
      }
    }
    return result
  }

  /// DECSTBM, SU/SD, and the margins reset (which homes the cursor). The pen must have the
  /// default background: scrolled-in lines take the current one.
  static func write(_ scroll: Scroll, into out: inout ByteWriter) {
    out.escape("[")
    out.decimal(scroll.top + 1)
    out.append(UInt8(ascii: ";"))
    out.decimal(scroll.bottom + 1)
    out.append(UInt8(ascii: "r"))
    out.escape("[")
    out.decimal(abs(scroll.distance))
    out.append(UInt8(ascii: scroll.distance > 0 ? "S" : "T"))
    out.escape("[r")
  }
}
