import Testing

@testable import TesseraCollection

@MainActor
@Suite(.timeLimit(.minutes(1))) struct PinnedHeaderTests {
  private func sectioned(
    _ layout: any CollectionLayout, pinned: Bool = true
  ) -> (
    CollectionView, TestDataSource
  ) {
    let source = TestDataSource(sections: [Array(0..<12), Array(12..<24), Array(24..<36)])
    for id in 0..<36 { source.heights[id] = 3 }
    source.headerHeight = 2
    let view = makeCollectionView(source, layout: layout, width: 31, height: 20)
    view.pinsSectionHeaders = pinned
    view.layoutIfNeeded()
    return (view, source)
  }

  private func headers(_ view: CollectionView) -> [(section: Int, y: Int)] {
    view.visibleSupplementaryViews.filter { $0.kind == .sectionHeader }.map {
      ($0.section, $0.frame.y)
    }
  }

  /// At every offset, the header of the section at the top is drawn at the top (or pushed
  /// up by its section's end); no header is drawn twice.
  @Test(arguments: ["grid", "list", "waterfall"])
  func theTopSectionsHeaderStaysAtTheTopUntilPushedAway(kind: String) throws {
    let layout: any CollectionLayout =
      switch kind {
      case "grid": GridLayout(columns: .fixed(3), spacing: 1)
      case "list": ListLayout(estimatedItemHeight: 3)
      default: WaterfallLayout(columns: 3, spacing: 1)
      }
    let (view, source) = sectioned(layout)
    defer { withExtendedLifetime(source) {} }
    for offset in 0...Int(view.maximumOffset) {
      view.setContentOffset(Double(offset))
      view.layoutIfNeeded()
      let drawn = headers(view)
      #expect(Set(drawn.map(\.section)).count == drawn.count)
      let top = try #require(
        (0..<3).first { layout.extent(ofSection: $0)!.contains(offset) }, "offset \(offset)")
      let extent = layout.extent(ofSection: top)!
      let pinned = try #require(
        drawn.first { $0.section == top },
        "offset \(offset): \(drawn), \(view.visibleCells.prefix(2).map(\.indexPath))")
      #expect(pinned.y == min(0, extent.upperBound - 2 - offset), "offset \(offset)")
    }
  }

  @Test func unpinnedHeadersScrollAwayWithTheirSection() throws {
    let (view, source) = sectioned(GridLayout(columns: .fixed(3), spacing: 1), pinned: false)
    defer { withExtendedLifetime(source) {} }
    view.setContentOffset(10)
    view.layoutIfNeeded()
    #expect(!headers(view).contains { $0.section == 0 })
  }

  /// The pinned header keeps its view while it is pinned (no reconfiguring every frame), and
  /// measuring rows under it never uses it as an anchor: the top row stays put.
  @Test func aPinnedHeaderKeepsItsViewAndDoesNotAnchorMeasurements() throws {
    let source = TestDataSource(sections: [Array(0..<50), Array(50..<100)])
    for id in 0..<100 { source.heights[id] = 4 }
    source.headerHeight = 1
    let view = makeCollectionView(
      source, layout: ListLayout(estimatedItemHeight: 1), width: 20, height: 10)
    view.pinsSectionHeaders = true
    try view.scrollToItem(IndexPath(item: 30, section: 0), at: .top)
    view.layoutIfNeeded()
    #expect(view.visibleCells.first?.indexPath == IndexPath(item: 30, section: 0))
    #expect(view.visibleCells.first?.frame.y == 0)
    let header = try #require(view.visibleSupplementaryViews.first { $0.kind == .sectionHeader })
    #expect(header.frame.y == 0)
    for _ in 0..<5 {
      view.scroll(by: 1, animated: false)
      view.layoutIfNeeded()
      let again = try #require(view.visibleSupplementaryViews.first { $0.kind == .sectionHeader })
      #expect(again.view === header.view)
      #expect(again.frame.y == 0)
    }
  }
}
