import TesseraCollection
import TesseraFeeds
import TesseraImages
import TesseraPhotoLibrary
import TesseraTestSupport
import Testing

@testable import TesseraGallery

/// Half blocks are requested 1×2 pixels a cell but drawn in the cell's real shape (the
/// renderer fits them to it): tiles are laid out, and their images requested, in that shape,
/// so a terminal whose cells are not 1:2 (8×17 here) shows photos neither stretched nor
/// with margins.
@MainActor
@Suite(.timeLimit(.minutes(1)))
struct CellAspectTests {
  func screen(cellAspect: Double?) -> GalleryScreen {
    let feed = GalleryFeed(title: "photos in /p") {
      PhotoLibrary(walker: ControlledWalker(), headerReader: TableHeaderReader([:]))
    }
    return GalleryScreen(
      feed: feed, pipeline: ImagePipeline(configuration: .init(diskCache: nil)), layout: .grid,
      columns: 4, width: 100, height: 40, cellPixels: PixelSize(width: 1, height: 2),
      cellAspect: cellAspect)
  }

  @Test func tilesAndRequestsTakeTheCellsRealShape() {
    let tall = screen(cellAspect: 17.0 / 8.0)
    // A 4:3 photo is 0.75 × 8 / 17 rows per column on 8×17 cells, not 0.75 / 2.
    #expect(abs(tall.cellHeightPerWidth(ofImage: 0.75) - 0.75 * 8 / 17) < 1e-9)
    // A 40×10 grid tile (9 rows of image under its caption) is 40 × 9 cells of 8×17 pixels:
    // at 1 pixel a column, 40 × 19 (9 × 17 / 8 = 19.1), not 40 × 18.
    let tile = Rect(x: 0, y: 0, width: 40, height: 10)
    #expect(tall.imagePixels(for: tile) == PixelSize(width: 40, height: 19))
    // Without a reported shape the request's own 1×2 is the cell's.
    let plain = screen(cellAspect: nil)
    #expect(plain.cellHeightPerWidth(ofImage: 0.75) == 0.375)
    #expect(plain.imagePixels(for: tile) == PixelSize(width: 40, height: 18))
  }

  @Test func anAbsurdReportedShapeIsHeldToAFontsShape() {
    #expect(screen(cellAspect: 1e9).geometry.cellAspect == GalleryLimits.cellAspects.upperBound)
    #expect(screen(cellAspect: 0).geometry.cellAspect == GalleryLimits.cellAspects.lowerBound)
    #expect(screen(cellAspect: .nan).geometry.cellAspect == 2)
  }
}
