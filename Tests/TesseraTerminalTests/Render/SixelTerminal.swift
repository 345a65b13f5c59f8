@testable import TesseraTerminal

/// A terminal model at the pixel level, for sixel: text cells and the image pixels over them.
/// It applies what the renderer emits — cursor moves (CUP, CUF, CHA, CR LF), ED 2, scroll
/// regions with SU/SD (which move pixels with the text inside the margins, as xterm, mlterm
/// and foot do), printed characters (which wipe the pixels of their cell, as xterm does) and
/// sixel images (painted at the cursor, transparent where unpainted). SGR and private modes
/// are accepted and ignored. Unknown sequences are recorded.
struct SixelTerminal {
  let columns: Int
  let rows: Int
  let cell: PixelSize
  /// RGBA, `columns × cell.width` wide; alpha 0 where no image pixel is.
  private(set) var pixels: [UInt8]
  private(set) var cursor = (x: 0, y: 0)
  private(set) var unknown: [String] = []
  private(set) var scrolls = 0
  private(set) var images = 0
  private var margins: ClosedRange<Int>

  var pixelWidth: Int { columns * cell.width }

  init(columns: Int, rows: Int, cell: PixelSize) {
    self.columns = columns
    self.rows = rows
    self.cell = cell
    pixels = [UInt8](repeating: 0, count: columns * cell.width * rows * cell.height * 4)
    margins = 0...(rows - 1)
  }

  /// The RGBA pixels of cell (`column`, `row`), row by row.
  func pixels(ofCell column: Int, _ row: Int) -> [UInt8] {
    var result: [UInt8] = []
    for y in (row * cell.height)..<((row + 1) * cell.height) {
      let start = (y * pixelWidth + column * cell.width) * 4
      result.append(contentsOf: pixels[start..<(start + cell.width * 4)])
    }
    return result
  }

  mutating func apply(_ bytes: [UInt8]) {
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      switch byte {
      case 0x1B:
        index = escape(bytes, at: index)
      case 0x0D:
        cursor.x = 0
        index += 1
      case 0x0A:
        cursor.y = min(cursor.y + 1, rows - 1)
        index += 1
      default:
        // One UTF-8 character: its lead byte and continuation bytes.
        var end = index + 1
        while end < bytes.count, bytes[end] & 0xC0 == 0x80 { end += 1 }
        let text = String(decoding: bytes[index..<end], as: UTF8.self)
        printCharacter(width: text.first.map { GraphemeWidth.of($0) } ?? 1)
        index = end
      }
    }
  }

  private mutating func printCharacter(width: Int) {
    if cursor.x >= columns {
      cursor.x = 0
      cursor.y = min(cursor.y + 1, rows - 1)
    }
    for column in cursor.x..<min(columns, cursor.x + max(1, width)) {
      wipe(column: column, row: cursor.y)
    }
    cursor.x += max(1, width)
  }

  private mutating func wipe(column: Int, row: Int) {
    for y in (row * cell.height)..<((row + 1) * cell.height) {
      let start = (y * pixelWidth + column * cell.width) * 4
      for index in start..<(start + cell.width * 4) { pixels[index] = 0 }
    }
  }

  private mutating func escape(_ bytes: [UInt8], at start: Int) -> Int {
    guard start + 1 < bytes.count else { return bytes.count }
    let introducer = bytes[start + 1]
    if introducer == UInt8(ascii: "P") {
      var end = start + 2
      while end + 1 < bytes.count, !(bytes[end] == 0x1B && bytes[end + 1] == 0x5C) { end += 1 }
      for image in SixelDecoder.decode(Array(bytes[start..<min(bytes.count, end + 2)])) {
        paint(image)
      }
      return end + 2
    }
    guard introducer == UInt8(ascii: "[") else {
      unknown.append("ESC \(introducer)")
      return start + 2
    }
    var index = start + 2
    var body: [UInt8] = []
    while index < bytes.count, !(0x40...0x7E).contains(bytes[index]) {
      body.append(bytes[index])
      index += 1
    }
    guard index < bytes.count else { return bytes.count }
    control(String(decoding: body, as: UTF8.self), final: bytes[index])
    return index + 1
  }

  private mutating func paint(_ image: SixelDecoder.Image) {
    images += 1
    let left = cursor.x * cell.width
    let top = cursor.y * cell.height
    for y in 0..<image.height where top + y < rows * cell.height {
      for x in 0..<image.width where left + x < pixelWidth {
        let from = (y * image.width + x) * 4
        guard image.pixels[from + 3] != 0 else { continue }
        let to = ((top + y) * pixelWidth + left + x) * 4
        for channel in 0..<4 { pixels[to + channel] = image.pixels[from + channel] }
      }
    }
  }

  private mutating func control(_ body: String, final: UInt8) {
    if body.hasPrefix("?") { return }
    let numbers = body.split(separator: ";", omittingEmptySubsequences: false).map {
      Int($0) ?? 0
    }
    func number(_ index: Int, _ fallback: Int) -> Int {
      index < numbers.count && numbers[index] > 0 ? numbers[index] : fallback
    }
    switch final {
    case UInt8(ascii: "H"):
      cursor = (number(1, 1) - 1, number(0, 1) - 1)
    case UInt8(ascii: "C"):
      cursor.x = min(cursor.x + number(0, 1), columns - 1)
    case UInt8(ascii: "G"):
      cursor.x = number(0, 1) - 1
    case UInt8(ascii: "r"):
      let top = number(0, 1) - 1
      let bottom = number(1, rows) - 1
      margins = top < bottom ? top...bottom : 0...(rows - 1)
      cursor = (0, 0)
    case UInt8(ascii: "S"), UInt8(ascii: "T"):
      let distance = number(0, 1) * (final == UInt8(ascii: "S") ? 1 : -1)
      let before = pixels
      let rowBytes = pixelWidth * cell.height * 4
      for row in margins {
        let source = row + distance
        let target = row * rowBytes
        if margins.contains(source) {
          pixels.replaceSubrange(
            target..<(target + rowBytes),
            with: before[(source * rowBytes)..<((source + 1) * rowBytes)])
        } else {
          pixels.replaceSubrange(
            target..<(target + rowBytes), with: repeatElement(0, count: rowBytes))
        }
      }
      scrolls += 1
    case UInt8(ascii: "J") where body == "2":
      pixels = [UInt8](repeating: 0, count: pixels.count)
    case UInt8(ascii: "m"):
      break
    default:
      unknown.append("CSI \(body) \(Character(Unicode.Scalar(final)))")
    }
  }
}
