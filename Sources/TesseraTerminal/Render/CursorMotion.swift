/// Cursor positioning: picks the shortest of the moves a terminal offers.
enum CursorMotion {
  /// Appends the bytes moving the cursor from `from` (nil: unknown) to `to` (0-based).
  static func move(from: (x: Int, y: Int)?, to: (x: Int, y: Int), into out: inout ByteWriter) {
    if let from {
      if from == to { return }
      if from.y == to.y, to.x > from.x {
        // CUF: ESC [ n C
        let count = to.x - from.x
        if count == 1 {
          out.escape("[C")
        } else {
          out.escape("[")
          out.decimal(count)
          out.append(UInt8(ascii: "C"))
        }
        return
      }
      if to.x == 0, to.y == from.y + 1 {
        out.append([0x0D, 0x0A])
        return
      }
      if from.y == to.y {
        // CHA: ESC [ col G
        out.escape("[")
        out.decimal(to.x + 1)
        out.append(UInt8(ascii: "G"))
        return
      }
    }
    if to == (0, 0) {
      out.escape("[H")
      return
    }
    out.escape("[")
    out.decimal(to.y + 1)
    if to.x > 0 {
      out.append(UInt8(ascii: ";"))
      out.decimal(to.x + 1)
    }
    out.append(UInt8(ascii: "H"))
  }
}
