/// Select Graphic Rendition: the shortest parameter lists that turn one pen into another.
enum SGR {
  /// The most parameters one `CSI … m` carries. mlterm 3.9 ignores a whole sequence with more
  /// than 10 (a reset, bold and two 24-bit colours are 12: every selected caption and most half
  /// blocks came out in the wrong colours); so does any terminal with a VT-sized buffer.
  static let maximumParameters = 10

  /// Appends the `CSI … m` sequences moving the terminal's pen from `current` (nil: unknown) to
  /// `target`, each with at most ``maximumParameters`` parameters, a colour never split
  /// across two; appends nothing when they are equal.
  static func transition(from current: CellStyle?, to target: CellStyle, into out: inout ByteWriter)
  {
    if let current, current == target { return }
    // Each group's parameters go into one sequence together.
    var groups: [[Int]] = []
    func colour(_ colour: CellColor, base: Int) {
      switch colour {
      case .terminalDefault:
        groups.append([base + 9])
      case .rgb(let rgb):
        groups.append([base + 8, 2, Int(rgb.red), Int(rgb.green), Int(rgb.blue)])
      }
    }
    let from: CellStyle
    if let current {
      from = current
    } else {
      // Unknown pen: reset, then only what differs from the default remains to set.
      groups.append([0])
      from = .plain
    }
    let lost = from.attributes.subtracting(target.attributes)
    var gained = target.attributes.subtracting(from.attributes)
    if !lost.intersection([.bold, .dim]).isEmpty {
      // 22 clears bold and dim together; whichever should stay is set again.
      groups.append([22])
      gained.formUnion(target.attributes.intersection([.bold, .dim]))
    }
    if lost.contains(.inverse) { groups.append([27]) }
    if gained.contains(.bold) { groups.append([1]) }
    if gained.contains(.dim) { groups.append([2]) }
    if gained.contains(.inverse) { groups.append([7]) }
    if from.foreground != target.foreground { colour(target.foreground, base: 30) }
    if from.background != target.background { colour(target.background, base: 40) }
    var count = 0
    for group in groups {
      if count > 0 && count + group.count > maximumParameters {
        out.append(UInt8(ascii: "m"))
        count = 0
      }
      if count == 0 { out.escape("[") }
      for parameter in group {
        if count > 0 { out.append(UInt8(ascii: ";")) }
        out.decimal(parameter)
        count += 1
      }
    }
    // No parameter (only attributes SGR does not set differ): `CSI m`, as it always was.
    if count == 0 { out.escape("[") }
    out.append(UInt8(ascii: "m"))
  }
}
