import TesseraUtilities
import Testing

@testable import TesseraCollection

@MainActor
@Suite struct WaterfallLayoutTests {
  /// Naive placement: each item in the shortest column (leftmost on ties).
  private func naiveFrames(
    heightsPerWidth: [Double], columns: ColumnGeometry, spacing: Int, top: Int
  )
    -> [Rect]
  {
    var bottoms = [Int](repeating: top + spacing, count: columns.count)
    return heightsPerWidth.map { heightPerWidth in
      let column = bottoms.indices.min {
        bottoms[$0] < bottoms[$1] || (bottoms[$0] == bottoms[$1] && $0 < $1)
      }!
      let height = max(1, Int((Double(columns.widths[column]) * heightPerWidth).rounded()))
      let frame = Rect(
        x: columns.xs[column], y: bottoms[column], width: columns.widths[column], height: height)
      bottoms[column] += height + spacing
      return frame
    }
  }

  @Test func eachItemGoesToTheShortestColumn() {
    var random = SplitMix64(seed: 3)
    let heightsPerWidth = (0..<500).map { _ in Double.random(in: 0.3...2.5, using: &random) }
    let layout = WaterfallLayout(columns: 3, spacing: 1)
    let provided = heightsPerWidth
    layout.heightPerWidthProvider = { provided[$0.item] }
    layout.prepare(
      SectionedContent(itemCounts: [500], collectionHeaderHeight: 3), width: 50, reason: .reload)
    let geometry = ColumnGeometry(requested: 3, spacing: 1, width: 50)
    let expected = naiveFrames(
      heightsPerWidth: heightsPerWidth, columns: geometry, spacing: 1, top: 3)
    for (item, frame) in expected.enumerated() {
      #expect(layout.frame(of: .item(IndexPath(item: item, section: 0))) == frame)
    }
    var all: [LayoutElement] = []
    layout.elements(intersecting: 0..<layout.contentHeight, into: &all)
    for _ in 0..<200 {
      let start = Int.random(in: -10...layout.contentHeight, using: &random)
      let band = start..<(start + Int.random(in: 1...80, using: &random))
      var found: [LayoutElement] = []
      layout.elements(intersecting: band, into: &found)
      #expect(Set(found) == Set(all.filter { $0.frame.intersects(band) }))
      let range = layout.itemRange(intersecting: band)
      for case .item(let path) in found.map(\.id) { #expect(range.contains(path.item)) }
    }
  }

  @Test func aShapeArrivingLaterMovesOnlyWhatFollows() {
    var random = SplitMix64(seed: 4)
    var heightsPerWidth = (0..<300).map { _ in Double.random(in: 0.5...2, using: &random) }
    let layout = WaterfallLayout(columns: 4, spacing: 1, defaultHeightPerWidth: 1)
    let content = SectionedContent(itemCounts: [300, 20], sectionHeaderHeights: [0, 2])
    let known = heightsPerWidth
    layout.heightPerWidthProvider = { $0.section == 0 ? known[$0.item] : nil }
    layout.prepare(content, width: 61, reason: .reload)
    let paths = (0..<300).map { IndexPath(item: $0, section: 0) }
    let before = paths.map { layout.frame(of: .item($0))! }
    let header = layout.frame(of: .supplementary(.sectionHeader, section: 1))!
    heightsPerWidth[120] = 3.5
    #expect(layout.setHeightPerWidth(3.5, ofItem: paths[120]))
    let after = paths.map { layout.frame(of: .item($0))! }
    #expect(Array(after[..<120]) == Array(before[..<120]))
    #expect(after[120].y == before[120].y && after[120].height > before[120].height)
    let geometry = ColumnGeometry(requested: 4, spacing: 1, width: 61)
    #expect(
      after == naiveFrames(heightsPerWidth: heightsPerWidth, columns: geometry, spacing: 1, top: 0))
    // The next section moved down with the taller body.
    #expect(layout.frame(of: .supplementary(.sectionHeader, section: 1))!.y >= header.y)
    // Same ratio again: nothing moves.
    #expect(!layout.setHeightPerWidth(3.5, ofItem: paths[120]))
  }

  @Test func theCollectionViewKeepsTheTopItemWhenAnImageAboveArrives() throws {
    let source = TestDataSource(count: 400)
    let layout = WaterfallLayout(columns: 3, spacing: 1, defaultHeightPerWidth: 1)
    let view = makeCollectionView(source, layout: layout, width: 40, height: 30)
    try view.scrollToItem(IndexPath(item: 200, section: 0), at: .top)
    view.layoutIfNeeded()
    let top = try #require(view.visibleCells.first)
    try view.setHeightPerWidth(2.5, forItemAt: IndexPath(item: 10, section: 0))
    view.layoutIfNeeded()
    let moved = try #require(view.visibleCells.first { $0.indexPath == top.indexPath })
    #expect(moved.frame.y == top.frame.y)
    #expect(throws: CollectionError.invalidIndexPath(IndexPath(item: 9_999, section: 0))) {
      try view.setHeightPerWidth(1, forItemAt: IndexPath(item: 9_999, section: 0))
    }
  }

  /// A shape set while the cell is configured (its image was in the cache) is the frame the
  /// cell is shown in, in the same frame: not the default one until something else moves.
  @Test func aShapeKnownWhenItsCellIsConfiguredIsTheFrameItIsShownIn() throws {
    let source = TestDataSource(count: 40)
    source.shapesOnConfigure = [1: 2.5, 4: 0.5]
    let layout = WaterfallLayout(columns: 3, spacing: 1, defaultHeightPerWidth: 1)
    let view = makeCollectionView(source, layout: layout, width: 40, height: 30)
    view.layoutIfNeeded()
    for item in [0, 1, 4] {
      let path = IndexPath(item: item, section: 0)
      let shown = try #require(view.visibleCells.first { $0.indexPath == path })
      #expect(shown.frame == layout.frame(of: .item(path)))
    }
    let plain = try #require(view.visibleCells.first { $0.indexPath.item == 0 })
    let tall = try #require(view.visibleCells.first { $0.indexPath.item == 1 })
    #expect(tall.frame.height > 2 * plain.frame.height)
  }
}
