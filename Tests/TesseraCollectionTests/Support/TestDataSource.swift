import TesseraCollection
import TesseraUtilities

/// A data source + delegate over sections of integer item ids, recording everything the
/// collection view does to it.
@MainActor
final class TestDataSource: CollectionDataSource, CollectionDelegate {
  var sections: [[Int]]
  /// Preferred heights per item id (self-sizing); missing ids keep the layout's size.
  var heights: [Int: Int] = [:]
  /// Text lengths per item id (height depends on width).
  var textLengths: [Int: Int] = [:]
  var headerHeight = 0
  var footerHeight = 0
  var collectionHeaderHeight = 0
  var collectionFooterHeight = 0
  /// Items whose cell is an `OtherCell`.
  var otherCellItems: Set<Int> = []
  var loader: ControlledLoader?
  /// Shapes (height ÷ width) set on the layout while an item's cell is configured, as an
  /// image found in a cache does.
  var shapesOnConfigure: [Int: Double] = [:]
  /// Cancel an item's image request when its cell leaves the screen (what the app does).
  var cancelOnEndDisplay = true

  private(set) var log: [String] = []
  private(set) var events: [String] = []
  private var serials: [ObjectIdentifier: Int] = [:]
  private(set) var prefetching: Set<IndexPath> = []
  private(set) var prefetchCalls = 0
  private(set) var cancelCalls = 0
  /// Items whose image was in the cache when their cell was configured.
  private(set) var boundFromCache: [ObjectIdentifier: Bool] = [:]

  init(sections: [[Int]]) { self.sections = sections }

  convenience init(count: Int) { self.init(sections: [Array(0..<count)]) }

  func item(at path: IndexPath) -> Int { sections[path.section][path.item] }

  func serial(of view: AnyObject) -> Int? { serials[ObjectIdentifier(view)] }

  func clearLog() {
    log.removeAll()
    events.removeAll()
  }

  // MARK: data source

  func numberOfSections(in collectionView: CollectionView) -> Int { sections.count }

  func collectionView(_ collectionView: CollectionView, numberOfItemsInSection section: Int) -> Int
  {
    sections[section].count
  }

  func collectionView(
    _ collectionView: CollectionView, cellForItemAt indexPath: IndexPath
  )
    -> any ReusableView
  {
    let id = item(at: indexPath)
    if otherCellItems.contains(id) {
      let cell: OtherCell = collectionView.dequeueReusableCell(for: indexPath)
      note(cell, for: indexPath)
      cell.item = id
      return cell
    }
    let cell: TestCell = collectionView.dequeueReusableCell(for: indexPath)
    note(cell, for: indexPath)
    cell.item = id
    cell.height = heights[id]
    cell.textLength = textLengths[id]
    if let shape = shapesOnConfigure[id] {
      try? collectionView.setHeightPerWidth(shape, forItemAt: indexPath)
    }
    if let loader {
      boundFromCache[ObjectIdentifier(cell)] = loader.cache[id] != nil
      cell.imageSlot.bind(item: id, request: id, loader: loader)
    }
    return cell
  }

  private func note(_ cell: AnyObject, for indexPath: IndexPath) {
    let key = ObjectIdentifier(cell)
    if let serial = serials[key] {
      log.append("reuse#\(serial) \(indexPath)")
    } else {
      serials[key] = serials.count
      log.append("new#\(serials.count - 1) \(indexPath)")
    }
  }

  func collectionView(
    _ collectionView: CollectionView, heightForSupplementaryElementOfKind kind: SupplementaryKind,
    inSection section: Int
  ) -> Int {
    switch kind {
    case .sectionHeader: headerHeight
    case .sectionFooter: footerHeight
    case .collectionHeader: collectionHeaderHeight
    case .collectionFooter: collectionFooterHeight
    }
  }

  func collectionView(
    _ collectionView: CollectionView, viewForSupplementaryElementOfKind kind: SupplementaryKind,
    at indexPath: IndexPath
  ) -> (any ReusableView)? {
    let view: HeaderView = collectionView.dequeueReusableSupplementaryView(
      ofKind: kind, for: indexPath)
    view.section = indexPath.section
    view.kind = kind
    return view
  }

  func collectionView(_ collectionView: CollectionView, prefetchItemsAt indexPaths: [IndexPath]) {
    prefetchCalls += 1
    prefetching.formUnion(indexPaths)
  }

  func collectionView(
    _ collectionView: CollectionView, cancelPrefetchingForItemsAt indexPaths: [IndexPath]
  ) {
    cancelCalls += 1
    prefetching.subtract(indexPaths)
  }

  // MARK: delegate

  func collectionView(
    _ collectionView: CollectionView, willDisplay cell: any ReusableView,
    forItemAt indexPath: IndexPath
  ) {
    events.append("willDisplay \(indexPath)")
    prefetching.remove(indexPath)
  }

  func collectionView(
    _ collectionView: CollectionView, didEndDisplaying cell: any ReusableView,
    forItemAt indexPath: IndexPath
  ) {
    events.append("didEndDisplaying \(indexPath)")
    if cancelOnEndDisplay, let cell = cell as? TestCell { cell.imageSlot.cancel() }
  }

  func collectionViewDidScroll(_ collectionView: CollectionView) {
    events.append("didScroll")
  }

  func collectionViewWillBeginDragging(_ collectionView: CollectionView) {
    events.append("willBeginDragging")
  }

  func collectionViewDidEndDragging(_ collectionView: CollectionView, willDecelerate: Bool) {
    events.append("didEndDragging(willDecelerate: \(willDecelerate))")
  }

  func collectionViewDidEndDecelerating(_ collectionView: CollectionView) {
    events.append("didEndDecelerating")
  }

  func collectionViewDidEndScrollingAnimation(_ collectionView: CollectionView) {
    events.append("didEndScrollingAnimation")
  }

  /// Scroll events only (display events filtered out), runs of didScroll collapsed to one.
  var scrollEvents: [String] {
    var result: [String] = []
    for event in events where !event.hasPrefix("willDisplay") {
      if event.hasPrefix("didEndDisplaying") { continue }
      if event == "didScroll" && result.last == "didScroll" { continue }
      result.append(event)
    }
    return result
  }
}

/// A collection view wired to `source`, laid out once.
@MainActor
func makeCollectionView(
  _ source: TestDataSource, layout: any CollectionLayout, width: Int = 20, height: Int = 80
) -> CollectionView {
  let view = CollectionView(layout: layout, width: width, height: height)
  view.dataSource = source
  view.delegate = source
  view.register(TestCell.self)
  view.layoutIfNeeded()
  return view
}

/// A waterfall of `count` items whose shapes (height ÷ width, in `shapes`) come from a seeded
/// generator, laid out in a `width` × `height` viewport. Keep the data source: the view holds
/// it weakly.
@MainActor
func makeSeededWaterfall(
  count: Int, columns: Int, seed: UInt64, shapes: ClosedRange<Double>, width: Int, height: Int
) -> (CollectionView, TestDataSource) {
  var random = SplitMix64(seed: seed)
  let ratios = (0..<count).map { _ in Double.random(in: shapes, using: &random) }
  let layout = WaterfallLayout(columns: columns, spacing: 1)
  layout.heightPerWidthProvider = { ratios[$0.item] }
  let source = TestDataSource(count: count)
  return (makeCollectionView(source, layout: layout, width: width, height: height), source)
}
