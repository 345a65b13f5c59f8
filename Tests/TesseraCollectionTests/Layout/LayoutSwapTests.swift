import TesseraUtilities
import Testing

@testable import TesseraCollection

@MainActor
@Suite struct LayoutSwapTests {
  @Test func swappingLayoutsKeepsTheTopItemAtTheTop() throws {
    let source = TestDataSource(count: 2_000)
    var random = SplitMix64(seed: 5)
    for id in 0..<2_000 { source.heights[id] = Int.random(in: 1...5, using: &random) }
    let view = makeCollectionView(
      source, layout: ListLayout(estimatedItemHeight: 3), width: 40, height: 30)
    try view.scrollToItem(IndexPath(item: 1_234, section: 0), at: .top)
    view.layoutIfNeeded()
    let layouts: [any CollectionLayout] = [
      GridLayout(columns: .fixed(4), spacing: 1, heightPerWidth: 0.5),
      WaterfallLayout(columns: 3, spacing: 1),
      ListLayout(estimatedItemHeight: 1),
    ]
    for layout in layouts {
      let top = try #require(view.visibleCells.first).indexPath
      view.layout = layout
      view.layoutIfNeeded()
      let cell = try #require(view.visibleCells.first { $0.indexPath == top })
      #expect(cell.frame.y == 0, "\(type(of: layout)) moved \(top) to \(cell.frame.y)")
    }
  }
}
