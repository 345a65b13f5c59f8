/// Select Graphic Rendition: the shortest parameter list that turns one pen into another.
enum SGR {
  /// Appends `CSI … m` moving the terminal's pen from `current` (nil: unknown) to `target`;
  /// appends nothing when they are equal.
  static func transition(from current: CellStyle?, to target: CellStyle, into out: inout ByteWriter)
  {
    if let current, current == target { return }
    out.escape("[")
    var first = true
    func separator() {
      if !first { out.append(UInt8(ascii: ";")) }
      first = false
    }
    func colour(_ colour: CellColor, base: Int) {
      separator()
      switch colour {
      case .terminalDefault:
        out.decimal(base + 9)
      case .rgb(let rgb):
        out.decimal(base + 8)
        out.append(";2;")
        out.decimal(Int(rgb.red))
        out.append(UInt8(ascii: ";"))
        out.decimal(Int(rgb.green))
        out.append(UInt8(ascii: ";"))
        out.decimal(Int(rgb.blue))
      }
    }
    let from: CellStyle
    if let current {
      from = current
    } else {
      // Unknown pen: reset, then only what differs from the default remains to set.
      out.append(UInt8(ascii: "0"))
      first = false
      from = .plain
    }
    let lost = from.attributes.subtracting(target.attributes)
    var gained = target.attributes.subtracting(from.attributes)
    if !lost.intersection([.bold, .dim]).isEmpty {
      // 22 clears bold and dim together; whichever should stay is set again.
      separator()
      out.decimal(22)
      gained.formUnion(target.attributes.intersection([.bold, .dim]))
    }
    if lost.contains(.inverse) {
      separator()
      out.decimal(27)
    }
    if gained.contains(.bold) {
      separator()
      out.decimal(1)
    }
    if gained.contains(.dim) {
      separator()
      out.decimal(2)
    }
    if gained.contains(.inverse) {
      separator()
      out.decimal(7)
    }
    if from.foreground != target.foreground { colour(target.foreground, base: 30) }
    if from.background != target.background { colour(target.background, base: 40) }
    out.append(UInt8(ascii: "m"))
  }
}
