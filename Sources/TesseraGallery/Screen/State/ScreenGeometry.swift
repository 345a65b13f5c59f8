import TesseraGeometry

/// The screen's size and the shape of what it draws: the terminal's size in cells, the layout
/// and its columns, and what one cell stands for in image pixels and on the glass.
struct ScreenGeometry {
  /// Pixels one terminal cell stands for in image requests: 1×2 in half blocks, the font's
  /// cell otherwise.
  var cellPixels: PixelSize
  /// Height ÷ width of a cell on the screen (the font's, whatever the request resolution):
  /// tiles are laid out, and images requested, in the shape they have on the screen.
  var cellAspect: Double
  var layoutMode: GalleryLayoutMode
  var columns: Int
  /// The grid's tile shape (`--tiles`).
  var tileShape: TileShape
  var width: Int
  var height: Int
}
