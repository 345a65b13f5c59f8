import Foundation
import TesseraGeometry
import TesseraPhotoFormats
import TesseraTestSupport
import TesseraUtilities
import Testing

/// A folder's month header pinned over its photos, in a real terminal: the pictures scrolling
/// under it are cut below its row (kitty placements and sixel crops alike), so the row shows the
/// header's text and not one pixel of a picture.
enum PinnedHeaderScenario {
  /// 48 photos taken in May 2024, each a saturated red-to-yellow ramp (no pixel of it grey or
  /// near the tests' magenta background).
  static func mayFolder() throws -> URL {
    let root = TemporaryFolder.make(prefix: "tessera-rt-months")
    let (width, height) = (160, 120)
    for index in 0..<48 {
      var pixels = [UInt8](repeating: 255, count: width * height * 4)
      for y in 0..<height {
        for x in 0..<width {
          let i = (y * width + x) * 4
          pixels[i] = 255
          pixels[i + 1] = UInt8(x * 200 / (width - 1))
          pixels[i + 2] = UInt8(index)
        }
      }
      let jpeg = try TestImages.encode(pixels, width: width, height: height, as: ".jpg")
      let taken = ExifWriter(
        orientation: 1, dateTaken: "2024:05:\(10 + index % 18) 10:\(10 + index):00")
      try Data(taken.splicing(into: Array(jpeg))).write(
        to: root.appendingPathComponent("may-\(index).jpg"))
    }
    return root
  }

  /// A picture's pixel: saturated, and not the background's magenta or text blended into it.
  static func isPicture(_ pixel: RGB) -> Bool {
    let (r, g, b) = (Int(pixel.red), Int(pixel.green), Int(pixel.blue))
    let magentaOrText = r >= 180 && b >= 180 && abs(r - b) <= 30
    return !magentaOrText && max(r, g, b) - min(r, g, b) >= 120
  }

  static func run(_ kind: RealTerminalKind) throws {
    let root = try mayFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    let graphics = kind == .kitty ? "kitty" : "sixel"
    let columns = RealTerminalScenarios.columns
    let terminal = try RealTerminal(
      kind,
      arguments: [root.path, "--graphics", graphics, "--no-disk-cache", "--columns", "4"],
      columns: columns, rows: RealTerminalScenarios.rows)
    try terminal.waitFor("May's photos") {
      $0.text.contains("May 2024 · 48 photos") && $0.settled
    }
    try terminal.key("End")
    func pictures(inRow row: Int, of screen: RealTerminalScreen) -> Int {
      let width = columns * screen.cellWidth
      var count = 0
      for y in (row * screen.cellHeight)..<((row + 1) * screen.cellHeight) {
        for x in 0..<width where isPicture(screen.pixels[x, y]) { count += 1 }
      }
      return count
    }
    // Row 0 is the title bar, row 1 the pinned header; the rows below hold pictures. xterm
    // paints a sixel image after the status bar that says it is loaded (CI once read rows 2
    // to 5 as 0, 0, 2184, 2184 picture pixels there): the screen counts once they are painted.
    let screen = try terminal.waitFor("May's header pinned over its last photos, painted") {
      screen in
      let lines = screen.text.split(separator: "\n", omittingEmptySubsequences: false)
      guard
        lines.count > 2 && lines[1].contains("May 2024 · 48 photos")
          && screen.text.contains("of 48") && !screen.text.contains("photos 1–") && screen.settled
      else { return false }
      let rowArea = columns * screen.cellWidth * screen.cellHeight
      return (2...5).contains { pictures(inRow: $0, of: screen) > rowArea / 4 }
    }
    #expect(pictures(inRow: 1, of: screen) == 0, "pictures show through the pinned header")
  }
}
