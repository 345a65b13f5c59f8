import Testing

@testable import TesseraCollection

@MainActor
@Suite struct PrefetchTests {
  @Test func theWindowReachesTwoScreensAheadAndOneBehind() {
    let source = TestDataSource(count: 1_000)
    let view = makeCollectionView(
      source, layout: ListLayout(estimatedItemHeight: 2), width: 10, height: 20)
    // At the top, moving down: items of the 2 screens below (40 units, 20 rows) are prefetched.
    #expect(source.prefetching == Set((10..<30).map { IndexPath(item: $0, section: 0) }))
    view.scroll(by: 100, animated: false)
    view.layoutIfNeeded()
    // Screen: rows 50..<60. Ahead: 60..<80, behind: 40..<50.
    #expect(
      source.prefetching
        == Set(
          (40..<50).map { IndexPath(item: $0, section: 0) }
            + (60..<80).map { IndexPath(item: $0, section: 0) }))
    #expect(view.prefetchedItemRanges == [40..<50, 60..<80])
    // Reversing: the window flips; what fell out is cancelled.
    view.scroll(by: -2, animated: false)
    view.layoutIfNeeded()
    // Item 59 was on screen a frame ago: not announced again.
    #expect(view.prefetchedItemRanges == [29..<49, 60..<69])
    #expect(
      source.prefetching
        == Set(view.prefetchedItemRanges.flatMap { $0 }.map { IndexPath(item: $0, section: 0) }))
    #expect(source.cancelCalls > 0)
  }

  @Test func itemsThatComeOnScreenAreNotCancelled() {
    let source = TestDataSource(count: 1_000)
    let view = makeCollectionView(
      source, layout: ListLayout(estimatedItemHeight: 2), width: 10, height: 20)
    let cancelsBefore = source.cancelCalls
    for _ in 0..<10 {
      view.scroll(by: 4, animated: false)
      view.layoutIfNeeded()
    }
    // Moving steadily down, announced items only leave the window by coming on screen; the
    // ones falling behind were seen on screen, never announced, so nothing is cancelled.
    #expect(source.cancelCalls == cancelsBefore)
    #expect(
      source.prefetching
        == Set(view.prefetchedItemRanges.flatMap { $0 }.map { IndexPath(item: $0, section: 0) }))
  }

  @Test func customWindowsAreHonoured() {
    let source = TestDataSource(count: 1_000)
    let view = CollectionView(layout: ListLayout(estimatedItemHeight: 2), width: 10, height: 20)
    view.prefetchWindow = PrefetchWindow(aheadScreens: 0.5, behindScreens: 0)
    view.dataSource = source
    view.layoutIfNeeded()
    #expect(view.prefetchedItemRanges == [10..<15])
  }
}
