import TesseraUtilities
import Testing

@testable import TesseraCollection

/// Random scrolls, batch updates, resizes, layout swaps and completions in random order
/// (some after cancellation, some failing): at every frame every visible cell shows its own
/// item's image or the placeholder, never another's, and never flashes.
@MainActor
@Suite struct ImageBindingPropertyTests {
  @Test(arguments: [1, 2, 3, 4, 5, 6] as [UInt64])
  func everyFrameShowsOnlyTheRightImages(seed: UInt64) throws {
    var random = SplitMix64(seed: seed)
    var nextID = 10_000
    let source = TestDataSource(sections: [Array(0..<300), Array(300..<500)])
    source.headerHeight = 2
    for id in 0..<500 { source.heights[id] = Int.random(in: 2...9, using: &random) }
    let loader = ControlledLoader()
    source.loader = loader
    source.cancelOnEndDisplay = seed % 2 == 0
    let view = CollectionView(layout: ListLayout(estimatedItemHeight: 4), width: 40, height: 30)
    view.dataSource = source
    view.delegate = source
    try view.reloadData(identifiers: source.sections)
    view.layoutIfNeeded()
    var everShown: [ObjectIdentifier: TestCell] = [:]

    for _ in 0..<1_500 {
      switch Int.random(in: 0..<100, using: &random) {
      case 0..<25:
        view.beginDrag()
        view.drag(by: Double.random(in: -40...40, using: &random))
        view.endDrag(velocity: Double.random(in: -2...2, using: &random))
      case 25..<32:
        view.scroll(
          by: Double.random(in: -60...60, using: &random), animated: Bool.random(using: &random))
      case 32..<36:
        let section = Int.random(in: 0..<source.sections.count, using: &random)
        if !source.sections[section].isEmpty {
          let item = Int.random(in: 0..<source.sections[section].count, using: &random)
          try view.scrollToItem(
            IndexPath(item: item, section: section),
            at: [.top, .center, .bottom].randomElement(using: &random)!,
            animated: Bool.random(using: &random))
        }
      case 36..<46:
        // A batch update: deletes, inserts (new ids), a move, maybe a reload.
        var sections = source.sections
        for _ in 0..<Int.random(in: 0...3, using: &random) {
          let section = Int.random(in: 0..<sections.count, using: &random)
          if !sections[section].isEmpty {
            sections[section].remove(
              at: Int.random(in: 0..<sections[section].count, using: &random))
          }
        }
        for _ in 0..<Int.random(in: 0...3, using: &random) {
          let section = Int.random(in: 0..<sections.count, using: &random)
          source.heights[nextID] = Int.random(in: 2...9, using: &random)
          sections[section].insert(
            nextID, at: Int.random(in: 0...sections[section].count, using: &random))
          nextID += 1
        }
        if !sections[0].isEmpty && !sections[1].isEmpty && Bool.random(using: &random) {
          let moved = sections[0].remove(at: Int.random(in: 0..<sections[0].count, using: &random))
          sections[1].insert(moved, at: Int.random(in: 0...sections[1].count, using: &random))
        }
        source.sections = sections
        let reloading: Set<Int> =
          sections[0].isEmpty ? [] : [sections[0].randomElement(using: &random)!]
        try view.performBatchUpdates(identifiers: sections, reloading: reloading)
      case 46..<48:
        view.setViewport(
          width: Int.random(in: 20...60, using: &random),
          height: Int.random(in: 10...40, using: &random))
      case 48..<50:
        let layouts: [any CollectionLayout] = [
          ListLayout(estimatedItemHeight: 4),
          GridLayout(columns: .fixed(3), spacing: 1, heightPerWidth: 0.5),
          WaterfallLayout(columns: 3, spacing: 1),
        ]
        view.layout = layouts.randomElement(using: &random)!
      case 50..<52:
        if let path = view.indexPathsForVisibleItems.randomElement(using: &random) {
          try view.setHeightPerWidth(Double.random(in: 0.3...2, using: &random), forItemAt: path)
        }
      default:
        // Completions in random order; some fail.
        for _ in 0..<Int.random(in: 0...4, using: &random) where !loader.pending.isEmpty {
          loader.complete(
            at: Int.random(in: 0..<loader.pending.count, using: &random),
            failing: Int.random(in: 0..<10, using: &random) == 0)
        }
      }
      view.tick(by: Double.random(in: 4...20, using: &random))
      view.layoutIfNeeded()
      expectEveryVisibleCellShowsItsOwnImage(view, source)
      for visible in view.visibleCells {
        if let cell = visible.cell as? TestCell { everShown[ObjectIdentifier(cell)] = cell }
      }
    }
    for cell in everShown.values { expectNoFlash(in: cell) }
  }
}
