@testable import TesseraTerminal

/// A tiny terminal model for tests: applies the subset of escape sequences the renderer
/// emits (CUP, CUF, CHA, CR, LF, ED 2, SGR, UTF-8 text) to a grid of cells, and skips
/// strings (APC, DCS) and private modes. Unknown sequences are recorded, so a test can
/// assert the renderer emitted nothing this model does not understand.
struct VirtualTerminal {
  private(set) var screen: FrameBuffer
  private(set) var cursor = (x: 0, y: 0)
  private(set) var pen = CellStyle.plain
  private(set) var unknown: [String] = []
  private(set) var printed = 0
  private(set) var scrolls = 0
  private var margins: ClosedRange<Int>

  init(width: Int, height: Int) {
    screen = FrameBuffer(width: width, height: height)
    margins = 0...(height - 1)
  }

  mutating func apply(_ bytes: [UInt8]) {
    var index = 0
    var text: [UInt8] = []
    func flushText() {
      guard !text.isEmpty else { return }
      for grapheme in String(decoding: text, as: UTF8.self) { print(grapheme) }
      text.removeAll()
    }
    while index < bytes.count {
      let byte = bytes[index]
      switch byte {
      case 0x1B:
        flushText()
        index = escape(bytes, at: index)
      case 0x0D:
        flushText()
        cursor.x = 0
        index += 1
      case 0x0A:
        flushText()
        cursor.y = min(cursor.y + 1, screen.height - 1)
        index += 1
      default:
        text.append(byte)
        index += 1
      }
    }
    flushText()
  }

  private mutating func print(_ grapheme: Character) {
    let width = GraphemeWidth.of(grapheme)
    if cursor.x >= screen.width {
      cursor.x = 0
      cursor.y = min(cursor.y + 1, screen.height - 1)
    }
    screen.set(Cell(String(grapheme), style: pen), x: cursor.x, y: cursor.y)
    if width == 2 { screen.set(.continuation(style: pen), x: cursor.x + 1, y: cursor.y) }
    cursor.x += width
    printed += 1
  }

  /// Returns the index after the sequence starting at `start` (an ESC).
  private mutating func escape(_ bytes: [UInt8], at start: Int) -> Int {
    guard start + 1 < bytes.count else { return bytes.count }
    let introducer = bytes[start + 1]
    if introducer == 0x5F || introducer == 0x50 {
      var index = start + 2
      while index + 1 < bytes.count, !(bytes[index] == 0x1B && bytes[index + 1] == 0x5C) {
        index += 1
      }
      return index + 2
    }
    guard introducer == 0x5B else {
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

  private mutating func control(_ body: String, final: UInt8) {
    if body.hasPrefix("?") { return }  // Private modes: sync output, cursor, mouse.
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
      cursor.x = min(cursor.x + number(0, 1), screen.width - 1)
    case UInt8(ascii: "G"):
      cursor.x = number(0, 1) - 1
    case UInt8(ascii: "r"):
      let top = number(0, 1) - 1
      let bottom = number(1, screen.height) - 1
      margins = top < bottom ? top...bottom : 0...(screen.height - 1)
      cursor = (0, 0)
    case UInt8(ascii: "S"), UInt8(ascii: "T"):
      let distance = number(0, 1) * (final == UInt8(ascii: "S") ? 1 : -1)
      let before = screen
      let blank = Cell(" ", style: CellStyle(background: pen.background))
      for row in margins {
        let source = row + distance
        for column in 0..<screen.width {
          screen.set(margins.contains(source) ? before[column, source] : blank, x: column, y: row)
        }
      }
      scrolls += 1
    case UInt8(ascii: "J") where body == "2":
      screen.fill(screen.bounds, with: Cell(" ", style: CellStyle(background: pen.background)))
    case UInt8(ascii: "m"):
      sgr(body.isEmpty ? [0] : numbers)
    default:
      unknown.append("CSI \(body) \(Character(Unicode.Scalar(final)))")
    }
  }

  private mutating func sgr(_ numbers: [Int]) {
    var index = 0
    while index < numbers.count {
      switch numbers[index] {
      case 0: pen = .plain
      case 1: pen.attributes.insert(.bold)
      case 2: pen.attributes.insert(.dim)
      case 7: pen.attributes.insert(.inverse)
      case 22: pen.attributes.subtract([.bold, .dim])
      case 27: pen.attributes.remove(.inverse)
      case 39: pen.foreground = .terminalDefault
      case 49: pen.background = .terminalDefault
      case 38, 48:
        guard index + 4 < numbers.count, numbers[index + 1] == 2 else {
          unknown.append("SGR \(numbers)")
          return
        }
        let colour = CellColor.rgb(
          UInt8(clamping: numbers[index + 2]), UInt8(clamping: numbers[index + 3]),
          UInt8(clamping: numbers[index + 4]))
        if numbers[index] == 38 { pen.foreground = colour } else { pen.background = colour }
        index += 4
      default: unknown.append("SGR \(numbers[index])")
      }
      index += 1
    }
  }
}
