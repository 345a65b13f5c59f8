import TesseraTerminal

/// The far end of `tessera bench link`: a terminal reduced to what the bench measures. It reads
/// the bytes as kitty or xterm would — text into a grid of cells (cursor moves, scroll regions,
/// erases), kitty graphics commands (uploads, placements, deletions), sixel images — and
/// answers the queries a terminal answers (DA1, XTVERSION, DECRQM, cell and window size, the
/// cursor position, kitty's support query; never kitty's local-file probe: across SSH the
/// terminal cannot read the remote machine's files).
///
/// Pictures are counted per place on screen: a kitty placement counts once its image's last
/// chunk has arrived; sixel pixels once their string ends, for as long as they are on screen
/// (text written or erased over a cell, as in xterm, takes its pixels), an area of cells side
/// by side counting once (a tile drawn in bands is one picture).
///
/// Every character takes one cell (the bench's captions are ASCII file names).
///
/// - Complexity: O(n) in the bytes read; a placement or sixel change O(pictures on screen).
struct ModelTerminal {
  enum Flavour: String, CaseIterable, Sendable {
    /// kitty 0.26: its graphics protocol, synchronized output.
    case kitty
    /// xterm -ti vt340: sixel.
    case xterm
  }

  let flavour: Flavour
  let columns: Int
  let rows: Int
  let cellWidth: Int
  let cellHeight: Int

  private(set) var cells: [Character]
  private var cursor = (x: 0, y: 0)
  private var saved = (x: 0, y: 0)
  private var scrollTop = 0
  private var scrollBottom: Int

  /// kitty: images whose last chunk arrived, and the one being uploaded.
  private var completeImages: Set<UInt32> = []
  private var uploading: (id: UInt32, display: Bool, width: Int)?
  /// kitty dropped the load under way (``dropLoad()``): its remaining chunks make nothing.
  private var droppedLoad = false
  /// Loads kitty dropped part-way, ever.
  private(set) var loadsDropped = 0
  /// kitty's image table's order: an image joins at its end when its first upload begins. A
  /// free (`d=I`) in kitty before 0.38.1 takes every later image without a placement too.
  private var creationOrder: [UInt32: Int] = [:]
  private var created = 0
  private var imageWidths: [UInt32: Int] = [:]
  /// Every kitty upload completed, in order: its image and the width it declared (`s`; 0
  /// when it declared none, as a PNG may).
  private(set) var uploads: [(image: UInt32, width: Int)] = []
  private var anonymousImages: UInt32 = 0
  private var placements: [PlacementKey: (rect: CellRect, image: UInt32)] = [:]
  /// sixel: which image's pixels each cell shows (0: none). A sixel image paints the cells it
  /// covers; text written or erased in a cell, as in xterm, replaces its pixels; a scroll
  /// moves them with the text.
  private var sixelOwners: [Int32]
  private var sixelsDrawn: Int32 = 0
  /// sixel, with ``recordsSixelColours``: per cell, the mean colour of the opaque pixels the
  /// image that last painted it has there (`0x01RRGGBB`; 0: none): which picture a cell shows,
  /// for a test whose photos each have a colour of their own.
  private(set) var sixelColours: [UInt32]
  /// Whether sixel images are decoded for ``sixelColours``. Off unless asked: it costs the
  /// bench's measurements time.
  var recordsSixelColours = false
  /// sixel: per cell, the bytes per cell of the first image that painted it and of the one it
  /// shows now (0: none): a coarse preview is a few bytes a cell, full detail hundreds.
  private(set) var firstSixelDensity: [Int32]
  private(set) var sixelDensity: [Int32]

  /// Uploads completed and sixel images drawn, ever.
  var picturesCompleted: Int { uploads.count + Int(sixelsDrawn) }
  /// Bytes of the graphics strings that arrived (kitty's APC, sixel's DCS, with their
  /// introducers and terminators): what pictures cost, apart from text and answers.
  private(set) var graphicsBytes = 0

  private var state = ParserState.ground
  /// The last character written: what REP (`CSI n b`) repeats.
  private var lastCharacter: Character = " "
  private var sequence: [UInt8] = []
  private var utf8: [UInt8] = []

  private struct PlacementKey: Hashable {
    var image: UInt32
    var placement: UInt32
  }

  private enum ParserState {
    case ground, escape, escapeIntermediate, csi, osc, dcs, apc, stringEscape(Kind)
    enum Kind { case osc, dcs, apc }
  }

  init(flavour: Flavour, columns: Int, rows: Int, cellWidth: Int, cellHeight: Int) {
    self.flavour = flavour
    self.columns = columns
    self.rows = rows
    self.cellWidth = cellWidth
    self.cellHeight = cellHeight
    cells = Array(repeating: " ", count: columns * rows)
    sixelOwners = Array(repeating: 0, count: columns * rows)
    sixelColours = Array(repeating: 0, count: columns * rows)
    firstSixelDensity = Array(repeating: 0, count: columns * rows)
    sixelDensity = Array(repeating: 0, count: columns * rows)
    scrollBottom = rows - 1
  }

  /// The screen's places showing a picture now.
  var pictures: Int {
    switch flavour {
    case .kitty:
      placements.values.filter { completeImages.contains($0.image) && isOnScreen($0.rect) }.count
    case .xterm: sixelRegions
    }
  }

  /// The separate areas of sixel pixels on screen (cells side by side that show sixel pixels
  /// are one area): a tile drawn in bands is one picture, tiles apart are two. O(cells).
  private var sixelRegions: Int { sixelRegionCells.count }

  /// The cells of each separate area of sixel pixels on screen (``sixelRegions``), each area's
  /// in the order the flood found them. O(cells).
  var sixelRegionCells: [[Int]] {
    var seen = [Bool](repeating: false, count: sixelOwners.count)
    var regions: [[Int]] = []
    var stack: [Int] = []
    for start in sixelOwners.indices where sixelOwners[start] != 0 && !seen[start] {
      regions.append([])
      seen[start] = true
      stack.append(start)
      while let cell = stack.popLast() {
        regions[regions.count - 1].append(cell)
        let (x, y) = (cell % columns, cell / columns)
        for (nx, ny) in [(x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)]
        where nx >= 0 && ny >= 0 && nx < columns && ny < rows {
          let next = ny * columns + nx
          if sixelOwners[next] != 0 && !seen[next] {
            seen[next] = true
            stack.append(next)
          }
        }
      }
    }
    return regions
  }

  /// kitty: the width each picture on screen was uploaded at (`s`), in no order.
  var shownWidths: [Int] {
    placements.values.filter { completeImages.contains($0.image) && isOnScreen($0.rect) }
      .map { imageWidths[$0.image] ?? 0 }
  }

  /// How many columns the pictures on screen stand in (distinct left edges).
  var pictureColumns: Int {
    switch flavour {
    case .kitty:
      Set(placements.values.filter { completeImages.contains($0.image) }.map(\.rect.x)).count
    case .xterm:
      // An area's left edge: a tile drawn in pieces side by side is one picture.
      Set(sixelRegionCells.map { cells in cells.lazy.map { $0 % columns }.min() ?? 0 }).count
    }
  }

  /// Row `y`'s text.
  func line(_ y: Int) -> String { String(cells[(y * columns)..<((y + 1) * columns)]) }

  /// The screen's text, a line per row.
  var text: String { (0..<rows).map(line).joined(separator: "\n") }

  /// Reads `bytes`; returns the terminal's answers to the queries among them.
  mutating func read(_ bytes: [UInt8]) -> [UInt8] {
    var answers: [UInt8] = []
    for byte in bytes { step(byte, answers: &answers) }
    return answers
  }

  private mutating func step(_ byte: UInt8, answers: inout [UInt8]) {
    switch state {
    case .ground:
      ground(byte)
    case .escape:
      switch byte {
      case UInt8(ascii: "["): begin(.csi)
      case UInt8(ascii: "]"): begin(.osc)
      case UInt8(ascii: "P"): begin(.dcs)
      case UInt8(ascii: "_"): begin(.apc)
      case UInt8(ascii: "7"): saved = cursor; state = .ground
      case UInt8(ascii: "8"): cursor = saved; state = .ground
      case 0x20...0x2F:
        // An intermediate (`ESC ( B`, tmux's charset reset): the sequence's last byte follows.
        state = .escapeIntermediate
      case UInt8(ascii: "M"):
        // Reverse index, as tmux scrolls a region down.
        if cursor.y == scrollTop { scroll(by: -1) } else { cursor.y = max(0, cursor.y - 1) }
        state = .ground
      default: state = .ground
      }
    case .escapeIntermediate:
      if !(0x20...0x2F).contains(byte) { state = .ground }
    case .csi:
      if (0x40...0x7E).contains(byte) {
        state = .ground
        csi(final: byte, answers: &answers)
      } else if byte == 0x1B {
        state = .escape
      } else {
        sequence.append(byte)
      }
    case .osc, .dcs, .apc:
      if byte == 0x1B {
        state = .stringEscape(kind(of: state))
      } else if byte == 0x07, case .osc = state {
        state = .ground
      } else {
        sequence.append(byte)
      }
    case .stringEscape(let kind):
      state = .ground
      guard byte == UInt8(ascii: "\\") else {
        // Another sequence began inside the string: the string is cut short.
        if byte == UInt8(ascii: "[") { begin(.csi) }
        return
      }
      switch kind {
      case .osc: break
      case .dcs:
        graphicsBytes += sequence.count + 4
        dcs(answers: &answers)
      case .apc:
        graphicsBytes += sequence.count + 4
        apc(answers: &answers)
      }
    }
  }

  private func kind(of state: ParserState) -> ParserState.Kind {
    switch state {
    case .osc: .osc
    case .dcs: .dcs
    default: .apc
    }
  }

  private mutating func begin(_ next: ParserState) {
    state = next
    sequence.removeAll(keepingCapacity: true)
  }

  // MARK: Text

  private mutating func ground(_ byte: UInt8) {
    switch byte {
    case 0x1B: state = .escape
    case 0x0D: cursor.x = 0
    case 0x0A: lineFeed()
    case 0x08: cursor.x = max(0, cursor.x - 1)
    case 0x00..<0x20, 0x7F: break
    case 0x20..<0x7F:
      // ASCII, the bulk of any text, without a String per byte.
      utf8.removeAll(keepingCapacity: true)
      put(Character(Unicode.Scalar(byte)))
    case 0x80..<0xC0:
      guard !utf8.isEmpty else { return }
      utf8.append(byte)
      if utf8.count == expectedLength(utf8[0]) { put(utf8) }
    default:
      utf8 = [byte]
      if expectedLength(byte) == 1 { put(utf8) }
    }
  }

  private func expectedLength(_ lead: UInt8) -> Int {
    switch lead {
    case ..<0x80: 1
    case 0xE0..<0xF0: 3
    case 0xF0...: 4
    default: 2
    }
  }

  private mutating func put(_ scalarBytes: [UInt8]) {
    utf8 = []
    let text = String(decoding: scalarBytes, as: UTF8.self)
    // A combining mark joins the cell before it, as a terminal draws it.
    if let scalar = text.unicodeScalars.first,
      scalar.properties.generalCategory == .nonspacingMark
    {
      return
    }
    put(Character(text))
  }

  private mutating func put(_ character: Character) {
    lastCharacter = character
    if cursor.x >= columns {
      cursor.x = 0
      lineFeed()
    }
    cells[cursor.y * columns + cursor.x] = character
    sixelOwners[cursor.y * columns + cursor.x] = 0
    sixelDensity[cursor.y * columns + cursor.x] = 0
    sixelColours[cursor.y * columns + cursor.x] = 0
    cursor.x += 1
  }

  private mutating func lineFeed() {
    if cursor.y == scrollBottom {
      scroll(by: 1)
    } else {
      cursor.y = min(rows - 1, cursor.y + 1)
    }
  }

  /// Scrolls the region up by `count` lines (down when negative); pictures move with the text.
  private mutating func scroll(by count: Int) {
    let height = scrollBottom - scrollTop + 1
    guard height > 0, count != 0 else { return }
    func shifted<T>(_ grid: [T], blank: T) -> [T] {
      var grid = grid
      let moved = (0..<height).map { offset -> [T] in
        let source = offset + count
        guard (0..<height).contains(source) else { return Array(repeating: blank, count: columns) }
        let row = scrollTop + source
        return Array(grid[(row * columns)..<((row + 1) * columns)])
      }
      for (offset, row) in moved.enumerated() {
        let start = (scrollTop + offset) * columns
        grid.replaceSubrange(start..<(start + columns), with: row)
      }
      return grid
    }
    cells = shifted(cells, blank: " ")
    sixelOwners = shifted(sixelOwners, blank: 0)
    sixelColours = shifted(sixelColours, blank: 0)
    sixelDensity = shifted(sixelDensity, blank: 0)
    firstSixelDensity = shifted(firstSixelDensity, blank: 0)
    let region = scrollTop...scrollBottom
    for (key, value) in placements where region.contains(value.rect.y) {
      var rect = value.rect
      rect.y -= count
      placements[key] = region.contains(rect.y) ? (rect, value.image) : nil
    }
  }

  /// Shifts the cursor's row from the cursor on right by `count` cells (left when negative),
  /// blanks coming in: ICH and DCH. Pixels move with their cells.
  private mutating func shiftRow(by count: Int) {
    let start = cursor.y * columns + cursor.x
    let end = (cursor.y + 1) * columns
    guard count != 0, start < end else { return }
    func shifted<T>(_ grid: inout [T], blank: T) {
      let old = Array(grid[start..<end])
      for index in start..<end {
        let source = index - start - count
        grid[index] = old.indices.contains(source) ? old[source] : blank
      }
    }
    shifted(&cells, blank: " ")
    shifted(&sixelOwners, blank: 0)
    shifted(&sixelColours, blank: 0)
    shifted(&sixelDensity, blank: 0)
    shifted(&firstSixelDensity, blank: 0)
  }

  private func isOnScreen(_ rect: CellRect) -> Bool {
    rect.x >= 0 && rect.y >= 0 && rect.x < columns && rect.y < rows
  }

  private mutating func erase(from start: Int, to end: Int) {
    guard start < end else { return }
    for index in max(0, start)..<min(cells.count, end) {
      cells[index] = " "
      sixelOwners[index] = 0
      sixelDensity[index] = 0
      sixelColours[index] = 0
    }
  }

  // MARK: Control sequences

  private mutating func csi(final: UInt8, answers: inout [UInt8]) {
    let private_ = sequence.first.map { (0x3C...0x3F).contains($0) } ?? false
    let body = private_ ? sequence.dropFirst() : sequence[...]
    let intermediates = body.filter { (0x20...0x2F).contains($0) }
    let numbers = String(decoding: body.filter { !(0x20...0x2F).contains($0) }, as: UTF8.self)
      .split(separator: ";", omittingEmptySubsequences: false)
      .map { Int($0.prefix(6)) ?? 0 }
    func parameter(_ index: Int, default value: Int) -> Int {
      index < numbers.count && numbers[index] > 0 ? numbers[index] : value
    }
    let prefix = private_ ? sequence.first : nil
    switch (final, prefix) {
    case (UInt8(ascii: "H"), nil), (UInt8(ascii: "f"), nil):
      cursor = (
        min(columns - 1, parameter(1, default: 1) - 1), min(rows - 1, parameter(0, default: 1) - 1)
      )
    case (UInt8(ascii: "A"), nil): cursor.y = max(0, cursor.y - parameter(0, default: 1))
    case (UInt8(ascii: "B"), nil): cursor.y = min(rows - 1, cursor.y + parameter(0, default: 1))
    case (UInt8(ascii: "C"), nil): cursor.x = min(columns - 1, cursor.x + parameter(0, default: 1))
    case (UInt8(ascii: "D"), nil): cursor.x = max(0, cursor.x - parameter(0, default: 1))
    case (UInt8(ascii: "G"), nil): cursor.x = min(columns - 1, parameter(0, default: 1) - 1)
    case (UInt8(ascii: "d"), nil): cursor.y = min(rows - 1, parameter(0, default: 1) - 1)
    case (UInt8(ascii: "J"), nil):
      let here = cursor.y * columns + cursor.x
      switch numbers.first ?? 0 {
      case 0: erase(from: here, to: cells.count)
      case 1: erase(from: 0, to: here + 1)
      default: erase(from: 0, to: cells.count)
      }
    case (UInt8(ascii: "K"), nil):
      let start = cursor.y * columns
      switch numbers.first ?? 0 {
      case 0: erase(from: start + cursor.x, to: start + columns)
      case 1: erase(from: start, to: start + cursor.x + 1)
      default: erase(from: start, to: start + columns)
      }
    case (UInt8(ascii: "X"), nil):
      let start = cursor.y * columns + cursor.x
      erase(from: start, to: min(start + parameter(0, default: 1), (cursor.y + 1) * columns))
    case (UInt8(ascii: "r"), nil):
      scrollTop = min(rows - 1, parameter(0, default: 1) - 1)
      scrollBottom = max(scrollTop, min(rows - 1, parameter(1, default: rows) - 1))
      cursor = (0, 0)
    case (UInt8(ascii: "b"), nil):
      for _ in 0..<min(columns * rows, parameter(0, default: 1)) { put(lastCharacter) }
    case (UInt8(ascii: "L"), nil), (UInt8(ascii: "M"), nil):
      // Insert or delete lines: the region from the cursor's row down scrolls.
      guard (scrollTop...scrollBottom).contains(cursor.y) else { break }
      let top = scrollTop
      scrollTop = cursor.y
      let count = min(rows, parameter(0, default: 1))
      scroll(by: final == UInt8(ascii: "L") ? -count : count)
      scrollTop = top
      cursor.x = 0
    case (UInt8(ascii: "@"), nil), (UInt8(ascii: "P"), nil):
      shiftRow(by: min(columns, parameter(0, default: 1)) * (final == UInt8(ascii: "@") ? 1 : -1))
    case (UInt8(ascii: "S"), nil): scroll(by: parameter(0, default: 1))
    case (UInt8(ascii: "T"), nil): scroll(by: -parameter(0, default: 1))
    case (UInt8(ascii: "c"), nil):
      answers += Array((flavour == .xterm ? "\u{1B}[?63;1;2;4;6;9;15;22c" : "\u{1B}[?62;c").utf8)
    case (UInt8(ascii: "c"), UInt8(ascii: ">")):
      answers += Array("\u{1B}[>1;4000;29c".utf8)
    case (UInt8(ascii: "q"), UInt8(ascii: ">")):
      let name = flavour == .kitty ? "kitty(0.26.5)" : "XTerm(379)"
      answers += Array("\u{1B}P>|\(name)\u{1B}\\".utf8)
    case (UInt8(ascii: "t"), nil):
      switch numbers.first {
      case 16: answers += Array("\u{1B}[6;\(cellHeight);\(cellWidth)t".utf8)
      case 14: answers += Array("\u{1B}[4;\(rows * cellHeight);\(columns * cellWidth)t".utf8)
      case 18: answers += Array("\u{1B}[8;\(rows);\(columns)t".utf8)
      default: break
      }
    case (UInt8(ascii: "n"), nil):
      if numbers.first == 6 {
        answers += Array("\u{1B}[\(cursor.y + 1);\(cursor.x + 1)R".utf8)
      } else if numbers.first == 5 {
        answers += Array("\u{1B}[0n".utf8)
      }
    case (UInt8(ascii: "p"), UInt8(ascii: "?")) where intermediates == [UInt8(ascii: "$")]:
      // DECRQM: kitty has synchronized output (2026), neither has in-band resize (2048).
      let mode = numbers.first ?? 0
      let setting = mode == 2026 && flavour == .kitty ? 2 : 0
      answers += Array("\u{1B}[?\(mode);\(setting)$y".utf8)
    default:
      break
    }
  }

  // MARK: Sixel

  private mutating func dcs(answers: inout [UInt8]) {
    // DCS P1;P2;P3 q "Pan;Pad;Ph;Pv … : a sixel image at the cursor.
    guard flavour == .xterm, let q = sequence.firstIndex(of: UInt8(ascii: "q")),
      sequence[..<q].allSatisfy({ (0x30...0x3B).contains($0) })
    else { return }
    var width = 0
    var height = 0
    let rest = sequence[(q + 1)...]
    if rest.first == UInt8(ascii: "\"") {
      let raster = rest.dropFirst().prefix { (0x30...0x3B).contains($0) }
      let numbers = String(decoding: raster, as: UTF8.self).split(separator: ";").map {
        Int($0.prefix(6)) ?? 0
      }
      if numbers.count >= 4 {
        width = numbers[2]
        height = numbers[3]
      }
    }
    let rect = CellRect(
      x: cursor.x, y: cursor.y, width: max(1, (width + cellWidth - 1) / cellWidth),
      height: max(1, (height + cellHeight - 1) / cellHeight))
    sixelsDrawn += 1
    let density = Int32(clamping: max(1, sequence.count / (rect.width * rect.height)))
    for y in rect.y..<min(rows, rect.y + rect.height) {
      for x in rect.x..<min(columns, rect.x + rect.width) {
        sixelOwners[y * columns + x] = sixelsDrawn
        sixelDensity[y * columns + x] = density
        if firstSixelDensity[y * columns + x] == 0 { firstSixelDensity[y * columns + x] = density }
      }
    }
    if recordsSixelColours { recordColours(at: rect) }
  }

  /// Each cell of `rect` takes the mean colour of the opaque pixels the sixel image just read
  /// has in it (a cell it leaves transparent shows what was there). O(the image's pixels).
  private mutating func recordColours(at rect: CellRect) {
    let string = [0x1B, UInt8(ascii: "P")] + sequence + [0x1B, UInt8(ascii: "\\")]
    guard let image = SixelDecoder.decode(string).first else { return }
    for y in rect.y..<min(rows, rect.y + rect.height) {
      for x in rect.x..<min(columns, rect.x + rect.width) {
        let top = (y - rect.y) * cellHeight
        let left = (x - rect.x) * cellWidth
        var sums = (red: 0, green: 0, blue: 0)
        var opaque = 0
        for row in top..<min(image.height, top + cellHeight) {
          for column in left..<min(image.width, left + cellWidth) {
            let pixel = (row * image.width + column) * 4
            guard image.pixels[pixel + 3] >= 128 else { continue }
            sums.red += Int(image.pixels[pixel])
            sums.green += Int(image.pixels[pixel + 1])
            sums.blue += Int(image.pixels[pixel + 2])
            opaque += 1
          }
        }
        guard opaque > 0 else { continue }
        let mean = [sums.red, sums.green, sums.blue].map { UInt32($0 / opaque) }
        sixelColours[y * columns + x] = 1 << 24 | mean[0] << 16 | mean[1] << 8 | mean[2]
      }
    }
  }

  // MARK: kitty graphics

  /// kitty before 0.38.1 drops a chunked load when a deletion arrives between its chunks: the
  /// image loading has no placement yet and is the newest, and such a kitty's `d=I` frees every
  /// image created after the one it names that has no placement (``free(_:)``). What it dropped
  /// is never shown.
  private mutating func dropLoad() {
    guard flavour == .kitty, let current = uploading else { return }
    uploading = nil
    completeImages.remove(current.id)
    droppedLoad = true
    loadsDropped += 1
  }

  private mutating func apc(answers: inout [UInt8]) {
    guard flavour == .kitty, sequence.first == UInt8(ascii: "G") else { return }
    let body = sequence.dropFirst()
    let control = body.prefix { $0 != UInt8(ascii: ";") }
    var keys: [Character: Int] = [:]
    var action: Character = "t"
    var deletion: Character = "a"
    var medium: Character = "d"
    for pair in control.split(separator: UInt8(ascii: ",")) {
      guard pair.count >= 3, pair[pair.startIndex + 1] == UInt8(ascii: "=") else { continue }
      let key = Character(Unicode.Scalar(pair[pair.startIndex]))
      let value = pair.dropFirst(2)
      switch key {
      case "a": action = Character(Unicode.Scalar(value.first ?? 0))
      case "d": deletion = Character(Unicode.Scalar(value.first ?? 0))
      case "t": medium = Character(Unicode.Scalar(value.first ?? 0))
      default: keys[key] = Int(String(decoding: value.prefix(10), as: UTF8.self)) ?? 0
      }
    }
    let id = UInt32(clamping: keys["i"] ?? 0)
    let more = keys["m"] == 1
    switch action {
    case "q":
      // The local-file probe names a file on the other machine: kitty cannot read it.
      let answer = medium == "d" ? "OK" : "ENOENT:No such file or directory"
      answers += Array("\u{1B}_Gi=\(id);\(answer)\u{1B}\\".utf8)
    case "t", "T":
      // A continuation chunk carries only m (and q): it belongs to the upload in progress.
      var upload = (id: id, display: action == "T", width: keys["s"] ?? 0)
      if keys["i"] == nil, uploading == nil, droppedLoad {
        // A chunk of a load kitty dropped: an error, until its last.
        droppedLoad = more
        break
      }
      droppedLoad = false
      if keys["i"] == nil, let current = uploading {
        upload = current
      } else if id == 0 {
        // An image with no id (timg's): kitty keeps each as its own.
        anonymousImages += 1
        upload.id = UInt32.max - anonymousImages
      }
      if keys["i"] != nil || uploading == nil {
        // kitty empties an image the moment a transmission under its id begins.
        completeImages.remove(upload.id)
        if creationOrder[upload.id] == nil {
          created += 1
          creationOrder[upload.id] = created
        }
      }
      if more {
        uploading = upload
      } else if control.count == body.count, uploading != nil {
        // An empty last chunk ends the load with what came: not a picture (the gallery's way
        // to give up an upload part-way).
        uploading = nil
      } else {
        uploading = nil
        completeImages.insert(upload.id)
        imageWidths[upload.id] = upload.width
        uploads.append((upload.id, upload.width))
        if upload.display { place(image: upload.id, placement: 0, keys: keys) }
      }
    case "p":
      place(image: id, placement: UInt32(clamping: keys["p"] ?? 0), keys: keys)
    case "d":
      // Only a deletion that frees walks kitty's table (lowercase ones keep the images).
      if deletion.isUppercase { dropLoad() }
      switch deletion {
      case "a": placements.removeAll()
      case "A":
        placements.removeAll()
        completeImages.removeAll()
        creationOrder.removeAll()
      case "i", "I":
        let placement = keys["p"].map { UInt32(clamping: $0) }
        placements = placements.filter { key, _ in
          key.image != id || (placement != nil && key.placement != placement)
        }
        if deletion == "I" { free(id) }
      default: break
      }
    default:
      break
    }
  }

  /// `d=I` as kitty before 0.38.1 does it (graphics.c `filter_refs`, fixed by kitty's 8facaf4):
  /// walking its table from the newest image to the one named, every image without a
  /// placement goes too; an id it does not hold matches nothing, and all of them go.
  private mutating func free(_ id: UInt32) {
    let from = creationOrder[id] ?? 0
    let placed = Set(placements.keys.map(\.image))
    for (other, order) in creationOrder where order > from && !placed.contains(other) {
      completeImages.remove(other)
      creationOrder[other] = nil
    }
    completeImages.remove(id)
    creationOrder[id] = nil
  }

  private mutating func place(image: UInt32, placement: UInt32, keys: [Character: Int]) {
    let rect = CellRect(
      x: cursor.x, y: cursor.y, width: max(1, keys["c"] ?? 1), height: max(1, keys["r"] ?? 1))
    placements[PlacementKey(image: image, placement: placement)] = (rect, image)
    if keys["C"] != 1 { cursor.x = min(columns - 1, cursor.x + rect.width) }
  }
}
