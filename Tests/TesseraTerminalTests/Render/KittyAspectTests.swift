import Testing

@testable import TesseraTerminal

/// Kitty scales the part of an image a placement shows to fill its cells: these tests read
/// the renderer's bytes back as kitty would (``KittyWire``) and check that what a person sees
/// is never stretched — the waterfall bug of issue 13, where landscape photos were drawn
/// squeezed into portrait tiles.
@Suite struct KittyAspectTests {
  static let cell = PixelSize(width: 8, height: 16)

  /// A black-and-white checkerboard of `square`-pixel squares.
  static func checkerboard(width: Int, height: Int, square: Int = 10) throws -> Bitmap {
    try Bitmap.generated(width: width, height: height) { x, y in
      (x / square + y / square) % 2 == 0 ? (255, 255, 255, 255) : (0, 0, 0, 255)
    }
  }

  /// Screen pixels per checkerboard square, across and down, in what `placement` shows of
  /// `image` (colour changes counted along the middle row and column of the part shown).
  static func shownSquare(
    _ placement: KittyWire.Placement, of image: KittyWire.Image
  ) -> (across: Double, down: Double) {
    let source = placement.source
    func isWhite(_ x: Int, _ y: Int) -> Bool { image.pixel(x, y)[0] > 127 }
    var across = 1
    let middleRow = source.y + source.height / 2
    for x in (source.x + 1)..<(source.x + source.width)
    where isWhite(x, middleRow) != isWhite(x - 1, middleRow) {
      across += 1
    }
    var down = 1
    let middleColumn = source.x + source.width / 2
    for y in (source.y + 1)..<(source.y + source.height)
    where isWhite(middleColumn, y) != isWhite(middleColumn, y - 1) {
      down += 1
    }
    return (
      Double(placement.columns * cell.width) / Double(across),
      Double(placement.rows * cell.height) / Double(down)
    )
  }

  /// Whether the part shown has the pixel aspect of the cells it fills (to the pixel).
  static func keepsAspect(_ placement: KittyWire.Placement) -> Bool {
    let shown = Double(placement.source.width) / Double(placement.source.height)
    let cells =
      Double(placement.columns * cell.width) / Double(placement.rows * cell.height)
    let tolerance = 1.5 / Double(min(placement.source.width, placement.source.height))
    return abs(shown / cells - 1) <= tolerance + 0.01
  }

  @Test func aLandscapePhotoInAPortraitTileIsCroppedNotSqueezed() throws {
    let renderer = TerminalRenderer(graphics: .kitty, cellPixelSize: Self.cell)
    // 300×200 px into 10×10 cells of 8×16 px: an 80×160 px portrait tile.
    let photo = try Self.checkerboard(width: 300, height: 200)
    var wire = KittyWire()
    try wire.apply(
      renderer.render(
        FrameBuffer(width: 40, height: 20),
        images: [
          ImagePlacement(
            imageID: 1, bitmap: photo, rect: CellRect(x: 0, y: 0, width: 10, height: 10))
        ]))
    let placement = try #require(wire.placements.first)
    let image = try #require(wire.images[placement.id])
    #expect(Self.keepsAspect(placement))
    let square = Self.shownSquare(placement, of: image)
    // Squares stay square on screen (within a square's rounding at the edges).
    #expect(abs(square.across / square.down - 1) < 0.25, "\(square)")
    // The centre of the photo is shown: the tile is half as wide as the photo's height.
    #expect(image.width * 2 == image.height)
  }

  @Test func everyPlacementOfAScrolledWaterfallKeepsItsPhotosAspect() throws {
    let renderer = TerminalRenderer(graphics: .kitty, cellPixelSize: Self.cell)
    let screen = FrameBuffer(width: 60, height: 20)
    let viewport = CellRect(x: 0, y: 1, width: 60, height: 18)
    // Tiles a few cells off their photos' shapes, some hanging off the viewport.
    let tiles: [(Int, Int, CellRect)] = [
      (300, 200, CellRect(x: 0, y: -3, width: 19, height: 7)),
      (200, 300, CellRect(x: 20, y: -6, width: 19, height: 16)),
      (400, 100, CellRect(x: 40, y: 2, width: 19, height: 3)),
      (120, 120, CellRect(x: 0, y: 5, width: 19, height: 9)),
      (90, 300, CellRect(x: 20, y: 11, width: 19, height: 20)),
      (640, 480, CellRect(x: 40, y: 6, width: 19, height: 8)),
    ]
    var placements: [ImagePlacement] = []
    for (index, (width, height, rect)) in tiles.enumerated() {
      placements.append(
        ImagePlacement(
          imageID: UInt64(index + 1), bitmap: try Self.checkerboard(width: width, height: height),
          rect: rect, clip: viewport))
    }
    var wire = KittyWire()
    try wire.apply(renderer.render(screen, images: placements))
    #expect(wire.placements.count == tiles.count)
    for placement in wire.placements {
      let image = try #require(wire.images[placement.id])
      #expect(Self.keepsAspect(placement), "\(placement) of \(image.width)x\(image.height)")
      let square = Self.shownSquare(placement, of: image)
      if placement.columns >= 4, placement.rows >= 4 {
        #expect(abs(square.across / square.down - 1) < 0.3, "\(placement): \(square)")
      }
    }
  }

  @Test func aTileThatChangesShapeIsShownUndistortedThenUploadedAgainForItsShape() throws {
    let renderer = TerminalRenderer(graphics: .kitty, cellPixelSize: Self.cell)
    let screen = FrameBuffer(width: 40, height: 30)
    let photo = try Self.checkerboard(width: 300, height: 200)
    var wire = KittyWire()
    // First laid out at a default shape, then at the photo's own (as a waterfall learns it).
    try wire.apply(
      renderer.render(
        screen,
        images: [
          ImagePlacement(
            imageID: 5, bitmap: photo, rect: CellRect(x: 0, y: 0, width: 20, height: 20))
        ]))
    let learned = ImagePlacement(
      imageID: 5, bitmap: photo, rect: CellRect(x: 0, y: 0, width: 20, height: 7))
    try wire.apply(renderer.render(screen, images: [learned], policy: .cachedOnly))
    #expect(wire.uploads == 1)
    #expect(Self.keepsAspect(try #require(wire.placements.last)))
    try wire.apply(renderer.render(screen, images: [learned]))
    #expect(wire.uploads == 2)
    let placement = try #require(wire.placements.last)
    #expect(Self.keepsAspect(placement))
    let image = try #require(wire.images[placement.id])
    #expect(placement.source == (0, 0, image.width, image.height))
    // Nothing changes after: re-placed, never re-sent.
    let again = renderer.render(screen, images: [learned])
    #expect(KittyWire.commands(in: again).isEmpty)
  }

  @Test func previewsAreSmallUndistortedAndReplacedByFullDetailOnTheNextFullFrame() throws {
    let renderer = TerminalRenderer(graphics: .kitty, cellPixelSize: Self.cell)
    let screen = FrameBuffer(width: 40, height: 30)
    let tile = ImagePlacement(
      imageID: 8, bitmap: try Self.checkerboard(width: 300, height: 300, square: 30),
      rect: CellRect(x: 0, y: 0, width: 20, height: 10))
    var wire = KittyWire()
    try wire.apply(renderer.render(screen, images: [tile], policy: .preview))
    let preview = try #require(wire.images.values.first)
    let side = Int(160 * KittyLayer.previewScale) + 1
    #expect(preview.width <= side && preview.height <= side)
    #expect(Self.keepsAspect(try #require(wire.placements.last)))
    #expect(renderer.statistics.previewUploads == 1)
    // Still flinging: the preview stays.
    try wire.apply(renderer.render(screen, images: [tile], policy: .preview))
    #expect(wire.uploads == 1)
    try wire.apply(renderer.render(screen, images: [tile]))
    #expect(wire.uploads == 2)
    let full = try #require(wire.images.values.first)
    #expect(full.width == 160 && full.height == 160)
    #expect(Self.keepsAspect(try #require(wire.placements.last)))
    let square = Self.shownSquare(try #require(wire.placements.last), of: full)
    #expect(abs(square.across / square.down - 1) < 0.25, "\(square)")
  }

  /// The first screen over a slow link (`.previewsFirst`): a preview on every tile before any
  /// tile's full detail, and full detail once each has one, as the link allows.
  @Test func previewsFirstPicturesEveryTileBeforeAnyFullDetail() throws {
    let renderer = TerminalRenderer(graphics: .kitty, cellPixelSize: Self.cell)
    let screen = FrameBuffer(width: 60, height: 30)
    let tiles = try (0..<3).map { index in
      ImagePlacement(
        imageID: UInt64(20 + index),
        bitmap: try Self.checkerboard(width: 300, height: 300, square: 30),
        rect: CellRect(x: index * 20, y: 0, width: 20, height: 10))
    }
    var wire = KittyWire()
    // Room for one full tile's bytes only: still every tile gets its preview first.
    let oneTile = 20_000
    try wire.apply(
      renderer.render(screen, images: tiles, policy: .previewsFirst, imageBudget: oneTile))
    #expect(wire.images.count == 3, "\(wire.images.count) tiles pictured")
    #expect(
      wire.images.values.allSatisfy { $0.width <= Int(160 * KittyLayer.previewScale) + 1 },
      "only previews")
    #expect(renderer.statistics.previewUploads == 3)
    // Then full detail, as the budget allows: never stuck at the previews.
    var frames = 0
    while wire.images.values.contains(where: { $0.width < 160 }) {
      frames += 1
      try #require(frames <= 6, "full detail never came: \(wire.images.values.map(\.width))")
      let before = renderer.statistics.imagesDeferred
      try wire.apply(
        renderer.render(screen, images: tiles, policy: .previewsFirst, imageBudget: oneTile))
      let left = wire.images.values.filter { $0.width < 160 }.count
      // A preview whose replacement did not fit is deferred, so the caller draws again.
      #expect(
        left == 0 || renderer.statistics.imagesDeferred > before, "\(left) left, none deferred")
    }
    #expect(wire.images.values.allSatisfy { $0.width == 160 && $0.height == 160 })
    #expect(renderer.statistics.previewUploads == 3)
    // A layer that sends no previews draws `.previewsFirst` as `.all`.
    let sixel = TerminalRenderer(graphics: .sixel, cellPixelSize: Self.cell)
    let bytes = sixel.render(screen, images: tiles, policy: .previewsFirst)
    #expect(sixel.statistics.imagesDeferred == 0)
    #expect(bytes.count > 3 * 1000, "\(bytes.count) bytes for three sixel tiles")
  }

  @Test func theGeometryCropsTheCentreAndMapsVisibleCellsProportionally() {
    let wide = KittyGeometry.fillCrop(
      of: PixelSize(width: 300, height: 200), toAspectOf: PixelSize(width: 80, height: 160))
    #expect(wide == .init(x: 100, y: 0, width: 100, height: 200))
    let tall = KittyGeometry.fillCrop(
      of: PixelSize(width: 100, height: 400), toAspectOf: PixelSize(width: 100, height: 100))
    #expect(tall == .init(x: 0, y: 150, width: 100, height: 100))
    #expect(
      KittyGeometry.uploadSize(
        crop: PixelSize(width: 100, height: 200), box: PixelSize(width: 80, height: 160))
        == PixelSize(width: 80, height: 160))
    // Never scaled up: kitty does that for free.
    #expect(
      KittyGeometry.uploadSize(
        crop: PixelSize(width: 10, height: 20), box: PixelSize(width: 80, height: 160))
        == PixelSize(width: 10, height: 20))
    // The lower half of a 4×2-cell tile whose upload is 80×80 (8×16 px cells: 32×32 box).
    let lower = KittyGeometry.source(
      upload: PixelSize(width: 80, height: 80), columns: 4, rows: 2, cell: Self.cell,
      visible: CellRect(x: 0, y: 1, width: 4, height: 1))
    #expect(lower == .init(x: 0, y: 40, width: 80, height: 40))
    #expect(
      KittyGeometry.source(
        upload: PixelSize(width: 80, height: 80), columns: 4, rows: 2, cell: Self.cell,
        visible: CellRect(x: 0, y: 0, width: 4, height: 2)) == nil)
  }
}
