/// Images as half-block cells composed into the frame (``HalfBlockImage``), cached per
/// (image, size) so scrolling re-uses the cells. Cache bounded by cell count.
struct BlockLayer {
  struct Key: Hashable {
    var imageID: UInt64
    var columns: Int
    var rows: Int
  }

  var cache = CostLRU<Key, HalfBlockImage>(budget: 1 << 20)

  mutating func compose(
    _ placements: [ImagePlacement], into frame: inout FrameBuffer, policy: ImageDrawPolicy,
    statistics: inout RenderStatistics
  ) {
    for placement in placements {
      guard let visible = placement.visible(in: frame.bounds) else { continue }
      let key = Key(
        imageID: placement.imageID, columns: placement.rect.width, rows: placement.rect.height)
      let image: HalfBlockImage
      if policy != .none, let cached = cache.value(for: key) {
        image = cached
        statistics.imageCacheHits += 1
      } else if policy == .all {
        image = HalfBlockImage(placement.bitmap, columns: key.columns, rows: key.rows)
        cache.insert(image, for: key, cost: image.cells.count)
        statistics.imageConversions += 1
      } else {
        statistics.imagesDeferred += 1
        continue
      }
      image.draw(into: &frame, at: (placement.rect.x, placement.rect.y), clip: visible)
    }
  }
}
