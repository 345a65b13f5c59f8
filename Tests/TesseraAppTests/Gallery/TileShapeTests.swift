import Foundation
import TesseraCollection
import TesseraGeometry
import TesseraImages
import TesseraPhotoLibrary
import TesseraTestSupport
import Testing

@testable import TesseraGallery

/// The grid's tile shape: the photos' own (`auto`), or the one `--tiles` names.
@MainActor
@Suite(.inProcessScreen)
struct TileShapeTests {
  @Test func theArgumentIsAutoSquareOrWidthToHeight() {
    #expect(TileShape(argument: "auto") == .auto(decided: nil))
    #expect(TileShape(argument: "AUTO") == .auto(decided: nil))
    #expect(TileShape(argument: "square") == .fixed(1))
    #expect(TileShape(argument: "3:2") == .fixed(1.5))
    #expect(TileShape(argument: "4:5") == .fixed(0.8))
    #expect(TileShape(argument: "4:1") == .fixed(4))
    for refused in [
      "", "3", "3:", ":2", "0:1", "1:0", "-3:2", "101:100", "5:1", "1:5", "a:b", "3:2:1",
    ] {
      #expect(TileShape(argument: refused) == nil, "“\(refused)” was accepted")
    }
    #expect(TileShape.fixed(1.5).description == "3:2")
    #expect(TileShape.fixed(0.8).description == "0.80:1")
  }

  @Test func autoTakesTheShapeMostPhotosAreNearest() {
    // A camera's 3:2 frames with a few phone photos among them.
    #expect(TileShape.mostCommon([1.5, 1.5, 1.5, 4.0 / 3, 4.0 / 3, 0.75]) == 1.5)
    #expect(TileShape.mostCommon([4.0 / 3, 4.0 / 3, 1.5, 0.75]) == 4.0 / 3)
    // Phone photos held upright, some cropped a little: square tiles, as phones' grids.
    #expect(TileShape.mostCommon([0.75, 0.76, 0.66, 1.33, 1.5]) == 1)
    // A panorama counts as the nearest listed shape, not as itself.
    #expect(TileShape.mostCommon([3.2, 3.5]) == 16.0 / 9)
    // A tie goes to the shape listed first; nothing usable decides nothing.
    #expect(TileShape.mostCommon([1.5, 4.0 / 3]) == 1.5)
    #expect(TileShape.mostCommon([]) == nil)
    #expect(TileShape.mostCommon([.nan, 0, -1, .infinity]) == nil)
    // Only the first photos are looked at.
    let late = Array(repeating: 1.5, count: TileShape.sample) + Array(repeating: 1, count: 1_000)
    #expect(TileShape.mostCommon(late) == 1.5)
  }

  /// A screen over a walk of `photos` (pixel sizes), 100×40 cells of 1×2 (half blocks).
  func screen(
    photos: [PixelSize], tiles: TileShape = .auto(decided: nil)
  ) async -> GalleryScreen {
    let walker = ControlledWalker()
    var headers: [String: PhotoHeader] = [:]
    var files: [WalkedFile] = []
    for (index, size) in photos.enumerated() {
      let path = "/p/\(index).jpg"
      headers[path] = PhotoHeader(pixelSize: size, exif: nil)
      files.append(WalkedFile(path: path, size: 1_000, modified: Date(timeIntervalSince1970: 0)))
    }
    let library = PhotoLibrary(
      walker: walker, headerReader: TableHeaderReader(headers),
      zone: TimeZone(identifier: "UTC")!)
    library.provisionalOrderDelay = .seconds(3_600)
    let screen = GalleryScreen(
      feed: GalleryFeed(title: "photos in /p") { library },
      pipeline: ImagePipeline(configuration: .init(diskCache: nil)), layout: .grid,
      columns: 4, width: 100, height: 40, cellPixels: PixelSize(width: 1, height: 2),
      tileShape: tiles)
    let walk = Task { await screen.start() }
    walker.release(WalkBatch(files: files, finished: true))
    await walk.value
    while screen.feed.items.count < photos.count || library.progress.headersRead < photos.count {
      await Task.yield()
    }
    _ = screen.tick(milliseconds: 0)
    return screen
  }

  /// The grid's tile height and the pixel box a tile's picture is requested at.
  func tile(_ screen: GalleryScreen) throws -> (rows: Int, request: PixelSize) {
    let grid = try #require(screen.collectionView.layout as? GridLayout)
    let request = try #require(
      screen.imageRequest(
        for: screen.feed.items[0], at: TesseraCollection.IndexPath(item: 0, section: 0),
        priority: .high))
    return (grid.itemHeight, try #require(request.targetSize))
  }

  @Test func aFolderOfLandscapePhotosGetsLandscapeTiles() async throws {
    let camera = Array(repeating: PixelSize(width: 6000, height: 4000), count: 7)
    let landscape = await screen(photos: camera + [PixelSize(width: 3000, height: 4000)])
    #expect(landscape.geometry.tileShape == .auto(decided: 1.5))
    let (rows, request) = try tile(landscape)
    // 99 columns for 4 tiles and 5 gaps: 23.5 wide; a 3:2 picture of 1×2 cells is 7.8 rows,
    // and a caption's line under it.
    #expect(rows == 9)
    let shape = Double(request.width) / Double(request.height)
    #expect(abs(shape - 1.5) < 0.1, "a tile's picture is \(request), not 3:2")

    let square = await screen(photos: camera, tiles: .fixed(1))
    #expect(try tile(square).rows == 13)
    let upright = await screen(
      photos: Array(repeating: PixelSize(width: 3000, height: 4000), count: 3))
    #expect(upright.geometry.tileShape == .auto(decided: 1))
    #expect(try tile(upright).rows == 13)
    let asked = await screen(photos: [PixelSize(width: 3000, height: 4000)], tiles: .fixed(0.75))
    #expect(try tile(asked).rows == 17)
  }
}
