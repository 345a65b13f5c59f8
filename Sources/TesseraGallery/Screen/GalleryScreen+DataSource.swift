import TesseraCollection
import TesseraImageBinding
import TesseraImages

/// Cells from items, images bound to cells, and prefetching: lazy loading, with the identity
/// check done by the slot's generation token instead of index paths.
extension GalleryScreen: CollectionDataSource, CollectionDelegate {
  func numberOfSections(in collectionView: CollectionView) -> Int {
    feed.sections.count
  }

  func collectionView(
    _ collectionView: CollectionView, numberOfItemsInSection section: Int
  )
    -> Int
  {
    feed.sections.indices.contains(section) ? feed.sections[section].range.count : 0
  }

  /// A header row over each titled section (a day or a month of local photos).
  func collectionView(
    _ collectionView: CollectionView, heightForSupplementaryElementOfKind kind: SupplementaryKind,
    inSection section: Int
  ) -> Int {
    guard kind == .sectionHeader, feed.sections.indices.contains(section),
      feed.sections[section].title != nil
    else { return 0 }
    return 1
  }

  func collectionView(
    _ collectionView: CollectionView, viewForSupplementaryElementOfKind kind: SupplementaryKind,
    at indexPath: IndexPath
  ) -> (any ReusableView)? {
    guard kind == .sectionHeader else { return nil }
    let header: SectionHeaderView = collectionView.dequeueReusableSupplementaryView(
      ofKind: kind, for: indexPath)
    return header
  }

  func collectionView(
    _ collectionView: CollectionView, cellForItemAt indexPath: IndexPath
  )
    -> any ReusableView
  {
    let item = feed.items[flatIndex(of: indexPath) ?? 0]
    switch layoutMode {
    case .grid, .waterfall:
      let cell: TileCell = collectionView.dequeueReusableCell(for: indexPath)
      configure(cell, with: item, at: indexPath)
      return cell
    case .list:
      let cell: RowCell = collectionView.dequeueReusableCell(for: indexPath)
      cell.thumbnailHeightPerWidth = cellHeightPerWidth(
        ofImage: feedProgress.knownHeightsPerWidth[item.id] ?? item.knownHeightPerWidth ?? 1)
      configure(cell, with: item, at: indexPath)
      return cell
    }
  }

  func configure(_ cell: some GalleryCell, with item: GalleryItem, at path: IndexPath) {
    cell.item = item
    cell.slot.onChange = { [weak self] _ in self?.needsDisplay = true }
    guard let request = imageRequest(for: item, at: path, priority: .high) else { return }
    let itemID = item.id
    cell.imageID = ImageIdentity.id(for: request)
    // Binding also stops the item's prefetch once the cell's request has joined it: a
    // prefetch left running would keep every item a fling showed for one frame queued for
    // download (found by `tessera bench scroll`).
    images.bind(cell.slot, item: itemID, request: request) { [weak self] image in
      self?.imageArrived(image, forItem: itemID)
    }
  }

  /// Gives the visible cells of `ids` their items again (their facts changed, not their
  /// place): O(visible cells), no diff of the whole feed.
  func reconfigureVisibleCells(of ids: Set<String>) {
    for visible in collectionView.visibleCells {
      guard let index = flatIndex(of: visible.indexPath), feed.items.indices.contains(index),
        ids.contains(feed.items[index].id)
      else { continue }
      let item = feed.items[index]
      if let cell = visible.cell as? TileCell {
        configure(cell, with: item, at: visible.indexPath)
      } else if let cell = visible.cell as? RowCell {
        configure(cell, with: item, at: visible.indexPath)
      }
    }
    needsDisplay = true
  }

  /// A newly known image shape resizes just that item: a waterfall tile or a list row.
  private func imageArrived(_ image: TesseraImages.Image, forItem id: String) {
    let size = image.originalSize
    guard size.width > 0, size.height > 0 else { return }
    let heightPerWidth = Double(size.height) / Double(size.width)
    let known = feedProgress.knownHeightsPerWidth[id]
    feedProgress.knownHeightsPerWidth[id] = heightPerWidth
    // Grid tiles have a fixed shape: nothing to resize (and finding the item's index path
    // builds a table of every id after each update).
    guard layoutMode != .grid, known == nil || abs((known ?? 0) - heightPerWidth) > 0.001,
      let path = collectionView.indexPath(forItemIdentifier: id)
    else { return }
    switch layoutMode {
    case .grid:
      break
    case .waterfall:
      if let tile = waterfallHeightPerWidth(forItem: path) {
        try? collectionView.setHeightPerWidth(tile, forItemAt: path)
      }
    case .list:
      if let row = collectionView.cellForItem(at: path) as? RowCell {
        row.thumbnailHeightPerWidth = cellHeightPerWidth(ofImage: heightPerWidth)
      }
      try? collectionView.invalidateSize(ofItemAt: path)
    }
    needsDisplay = true
  }

  /// The request for an item's image at the pixel size its frame will show. The size must not
  /// depend on measurements still to come (a prefetch and the cell that follows must ask for
  /// the same thing, or the cell misses the cache and flashes its placeholder): grid tiles
  /// have a fixed shape; waterfall tiles and list thumbnails are bounded by their width only.
  func imageRequest(
    for item: GalleryItem, at path: IndexPath, priority: ImageRequest.Priority
  ) -> ImageRequest? {
    guard let frame = collectionView.frameForItem(at: path) else { return nil }
    let pixels = imagePixels(for: frame)
    guard pixels.width > 0, pixels.height > 0,
      let url = item.imageURL(coveringWidth: pixels.width, height: pixels.height)
    else { return nil }
    return ImageRequest(
      url: url, targetSize: pixels,
      contentMode: layoutMode == .grid ? .aspectFill : .aspectFit, priority: priority,
      source: feed.imageSource)
  }

  /// The pixel box an item's image is decoded into.
  func imagePixels(for frame: Rect) -> PixelSize {
    let columns: Int
    switch layoutMode {
    case .grid:
      // The tile's shape on the screen, at the request's resolution across.
      let rows =
        Double(max(1, frame.height - 1)) * Double(geometry.cellPixels.width) * geometry.cellAspect
      return PixelSize(
        width: frame.width * geometry.cellPixels.width,
        height: max(1, Int(clamping: rows.rounded(), to: 1...GalleryLimits.maxRequestSide)))
    case .waterfall: columns = frame.width
    case .list: columns = RowCell.thumbnailWidth
    }
    // Up to twice as tall as wide: the tallest shape the feeds serve.
    return PixelSize(
      width: columns * geometry.cellPixels.width, height: 2 * columns * geometry.cellPixels.width)
  }

  /// Prefetches are kept by item id: an insert above moves an item's index path between its
  /// announcement and its withdrawal, never its id.
  func collectionView(_ collectionView: CollectionView, prefetchItemsAt indexPaths: [IndexPath]) {
    images.prefetchItems(at: indexPaths) { path in
      guard let item = item(at: path),
        let request = imageRequest(for: item, at: path, priority: .low)
      else { return nil }
      return (item.id, request)
    }
  }

  func collectionView(
    _ collectionView: CollectionView, cancelPrefetchingForItemsAt indexPaths: [IndexPath]
  ) {
    images.cancelPrefetchingItems(at: indexPaths) { item(at: $0)?.id }
  }

  private func item(at path: IndexPath) -> GalleryItem? {
    flatIndex(of: path).map { feed.items[$0] }
  }

  func collectionView(
    _ collectionView: CollectionView, didEndDisplaying cell: any ReusableView,
    forItemAt indexPath: IndexPath
  ) {
    // A cell that left the screen stops waiting for its image; the pipeline keeps the work
    // only while the prefetcher (or another cell) still wants it.
    (cell as? any GalleryCell)?.slot.cancel()
  }

  /// After a refresh, cells whose image failed try again.
  func retryFailedImages() {
    for visible in collectionView.visibleCells {
      guard let cell = visible.cell as? any GalleryCell, let item = cell.item,
        cell.slot.failure != nil
      else { continue }
      configure(cell, with: item, at: visible.indexPath)
    }
  }
}
