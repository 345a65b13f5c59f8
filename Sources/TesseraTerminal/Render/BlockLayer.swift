import TesseraUtilities

/// Images as half-block cells composed into the frame (``HalfBlockImage``), cached per
/// (image, size, crop) so scrolling re-uses the cells. Cache bounded by cell count.
///
/// A tile no larger than the screen is converted whole, once, and scrolls from the cache; a
/// larger one (an extreme shape, a tall list row) only in its visible part, so the work per
/// frame is bounded by the screen's cells whatever the image's size or aspect.
struct BlockLayer {
  struct Key: Hashable {
    var imageID: UInt64
    var columns: Int
    var rows: Int
    /// The part converted; nil for the whole tile.
    var crop: CellRect?
    /// The colour of a margin (a tile rounded to whole rows shows its own background there).
    var background: RGB
  }

  var cache = LRUCache<Key, HalfBlockImage>(costLimit: 1 << 20)
  /// One cell in pixels: images are fitted to their tiles' shape on the screen.
  var cellSize = PixelSize(width: 10, height: 20) {
    didSet { if cellSize != oldValue { cache.removeAll() } }
  }

  mutating func compose(
    _ placements: [ImagePlacement], into frame: inout FrameBuffer, policy: ImageDrawPolicy,
    statistics: inout RenderStatistics
  ) {
    let screenCells = frame.width * frame.height
    for placement in placements {
      guard let visible = placement.visible(in: frame.bounds) else { continue }
      let rect = placement.rect
      let wholeFits = rect.width * rect.height <= screenCells
      let under = frame[visible.x, visible.y].style.background
      let background = if case .rgb(let colour) = under { colour } else { RGB(0, 0, 0) }
      let key = Key(
        imageID: placement.imageID, columns: rect.width, rows: rect.height,
        crop: wholeFits ? nil : placement.crop(of: visible),
        background: background)
      let image: HalfBlockImage
      if policy != .none, let cached = cache.value(for: key) {
        image = cached
        statistics.imageCacheHits += 1
      } else if policy == .all {
        image = HalfBlockImage(
          placement.bitmap, columns: key.columns, rows: key.rows, crop: key.crop,
          cellSize: cellSize, background: key.background)
        cache.insert(image, for: key, cost: max(1, image.cells.count))
        statistics.imageConversions += 1
        statistics.pixelsResampled += image.cells.count * 2
      } else {
        statistics.imagesDeferred += 1
        continue
      }
      image.draw(into: &frame, at: (rect.x, rect.y), clip: visible)
    }
  }
}
