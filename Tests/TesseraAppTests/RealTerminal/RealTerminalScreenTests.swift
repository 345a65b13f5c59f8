import TesseraServer
import Testing

/// The screenshot reader the real-terminal tests rely on, on screens painted here: it must find
/// a tile beside its caption, read its marker, measure both bands to within a pixel or two, and
/// tell a stretched image from a true one.
struct RealTerminalScreenTests {
  static let cell = (width: 6, height: 13)
  static let size = (width: 240, height: 200)

  /// A grid screen: title row, a tile image in cells (1…20, 2…10), its caption "#id" on row 11.
  /// The image is a body colour with the marker along the top (`top` px) and left (`left` px).
  static func screen(id: Int, top: Int, left: Int) -> RealTerminalScreen {
    var rgb = [UInt8](repeating: 0, count: size.width * size.height * 3)
    func paint(_ x: Range<Int>, _ y: Range<Int>, _ colour: RGB) {
      for row in y {
        for column in x {
          let i = (row * size.width + column) * 3
          (rgb[i], rgb[i + 1], rgb[i + 2]) = (colour.red, colour.green, colour.blue)
        }
      }
    }
    paint(0..<size.width, 0..<size.height, RealTerminalScreen.background)
    let image = (x: cell.width..<(21 * cell.width), y: (2 * cell.height)..<(11 * cell.height))
    paint(image.x, image.y, RGB(96, 140, 60))
    let marker = IdMarker.color(for: id)
    paint(image.x, image.y.lowerBound..<(image.y.lowerBound + top), marker)
    paint(image.x.lowerBound..<(image.x.lowerBound + left), image.y, marker)
    let rows = ["title", "", "", "", "", "", "", "", "", "", "", " #\(id) caption", "", "status"]
    return RealTerminalScreen(
      pixels: .init(width: size.width, height: size.height, rgb: rgb),
      text: rows.joined(separator: "\n"), cellWidth: cell.width, cellHeight: cell.height)
  }

  @Test func readsTheMarkerAndBothBands() throws {
    let tile = try #require(Self.screen(id: 37, top: 18, left: 18).tiles(.tiles).first)
    #expect(tile.showsOwnImage)
    #expect((tile.left, tile.top, tile.width, tile.height) == (6, 26, 120, 117))
    #expect(abs(tile.topBand - 18) <= 2 && abs(tile.leftBand - 18) <= 2, "\(tile)")
    #expect(RealTerminalScenarios.readEqual(tile.topBand, tile.leftBand))
  }

  @Test func tellsAStretchedImageFromATrueOne() throws {
    let tile = try #require(Self.screen(id: 37, top: 18, left: 36).tiles(.tiles).first)
    #expect(abs(tile.leftBand - 36) <= 2, "\(tile)")
    #expect(!RealTerminalScenarios.readEqual(tile.topBand, tile.leftBand))
  }

  @Test func anotherItemsMarkerIsReadAsWrong() throws {
    var screen = Self.screen(id: 41, top: 18, left: 18)
    screen = RealTerminalScreen(
      pixels: screen.pixels, text: screen.text.replacingOccurrences(of: "#41", with: "#40"),
      cellWidth: screen.cellWidth, cellHeight: screen.cellHeight)
    let tile = try #require(screen.tiles(.tiles).first)
    #expect(tile.markerID == 41 && !tile.showsOwnImage)
    #expect(RealTerminalScenarios.wrongImages(screen, .tiles).count == 1)
  }
}
