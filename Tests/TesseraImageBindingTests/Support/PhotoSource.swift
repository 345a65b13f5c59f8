import TesseraCollection
import TesseraImageBinding
import TesseraImages

/// A cell with an image slot that records everything it showed.
@MainActor
final class PhotoCell: ReusableView {
  var item: String?
  let slot = ImageSlot<Image>()
  /// (item, content) after every change of the slot, in order.
  private(set) var shown: [(item: String?, content: ImageSlot<Image>.Content)] = []

  init() {
    slot.onChange = { [weak self] content in
      guard let self else { return }
      self.shown.append((self.item, content))
    }
  }

  func prepareForReuse() {
    item = nil
    slot.prepareForReuse()
  }
}

/// A data source over item ids ("p0", "p1", …) in one section, its cells bound through a
/// `CollectionImageBinder`, what any client of the module writes.
@MainActor
final class PhotoSource: CollectionDataSource {
  var ids: [String]
  let binder: CollectionImageBinder<String>

  init(ids: [String], pipeline: ImagePipeline) {
    self.ids = ids
    binder = CollectionImageBinder(pipeline: pipeline)
  }

  func collectionView(_ collectionView: CollectionView, numberOfItemsInSection section: Int) -> Int
  {
    ids.count
  }

  func collectionView(
    _ collectionView: CollectionView, cellForItemAt indexPath: IndexPath
  ) -> any ReusableView {
    let cell: PhotoCell = collectionView.dequeueReusableCell(for: indexPath)
    let id = ids[indexPath.item]
    cell.item = id
    binder.bind(cell.slot, item: id, request: TestImages.request(id, priority: .high))
    return cell
  }

  func collectionView(_ collectionView: CollectionView, prefetchItemsAt indexPaths: [IndexPath]) {
    binder.prefetchItems(at: indexPaths) { path in
      (ids[path.item], TestImages.request(ids[path.item], priority: .low))
    }
  }

  func collectionView(
    _ collectionView: CollectionView, cancelPrefetchingForItemsAt indexPaths: [IndexPath]
  ) {
    binder.cancelPrefetchingItems(at: indexPaths) { path in ids[path.item] }
  }
}

/// A list of `count` items ("p0"…), 10 units tall each, in a 40-unit viewport (4 on
/// screen), laid out once: the first frame.
@MainActor
func makeGallery(count: Int = 100) throws -> (PhotoSource, CollectionView, HeldDataLoader) {
  let loader = HeldDataLoader()
  let source = PhotoSource(ids: (0..<count).map { "p\($0)" }, pipeline: makePipeline(loader))
  let view = CollectionView(layout: ListLayout(estimatedItemHeight: 10), width: 20, height: 40)
  view.dataSource = source
  try view.reloadData(identifiers: [source.ids])
  view.layoutIfNeeded()
  return (source, view, loader)
}

extension CollectionView {
  /// The cell showing `item`, or nil.
  func photoCell(at item: Int) -> PhotoCell? {
    cellForItem(at: IndexPath(item: item, section: 0)) as? PhotoCell
  }
}
