import Foundation
import Testing

@testable import TesseraCollection

@MainActor
@Suite struct ScrollPhysicsTests {
  private func longList() -> (TestDataSource, CollectionView) {
    let source = TestDataSource(count: 10_000)
    let view = makeCollectionView(
      source, layout: ListLayout(estimatedItemHeight: 2), width: 20, height: 40)
    source.clearLog()
    return (source, view)
  }

  private func runUntilIdle(_ view: CollectionView, step: Double = 8, limit: Int = 10_000) -> Int {
    var frames = 0
    while view.scrollPhase != .idle && frames < limit {
      view.tick(by: step)
      view.layoutIfNeeded()
      frames += 1
    }
    return frames
  }

  @Test func aFlingFiresUIKitsEventsInOrder() {
    let (source, view) = longList()
    view.beginDrag()
    view.drag(by: 10)
    view.drag(by: 10)
    view.endDrag(velocity: 1.5)
    #expect(view.isDecelerating)
    _ = runUntilIdle(view)
    #expect(
      source.scrollEvents == [
        "willBeginDragging", "didScroll", "didEndDragging(willDecelerate: true)", "didScroll",
        "didEndDecelerating",
      ])
  }

  @Test func aSlowReleaseDoesNotDecelerate() {
    let (source, view) = longList()
    view.beginDrag()
    view.drag(by: 4)
    view.endDrag(velocity: 0.0001)
    #expect(view.scrollPhase == .idle)
    view.tick(by: 100)
    #expect(
      source.scrollEvents == [
        "willBeginDragging", "didScroll", "didEndDragging(willDecelerate: false)",
      ])
    #expect(view.contentOffset == 4)
  }

  /// UIScrollView's normal rate: velocity × 0.998 per ms, so a fling travels v / −ln 0.998
  /// (less the last half unit) whatever the frame steps.
  @Test(arguments: [1.0, 4.0, 8.333, 16.667, 33.0])
  func decelerationIsFrameRateIndependent(step: Double) {
    let (_, view) = longList()
    view.beginDrag()
    view.endDrag(velocity: 2)
    _ = runUntilIdle(view, step: step)
    let rate = ScrollMotion.normalDecelerationRate
    let minimum = 0.5 * -log(rate)
    let expected = (2 - minimum) / -log(rate)
    #expect(abs(view.contentOffset - expected) < 1e-6)
  }

  @Test func timeOnlyPassesWhenTheCallerSaysSo() {
    let (_, view) = longList()
    view.beginDrag()
    view.endDrag(velocity: 3)
    let offset = view.contentOffset
    view.layoutIfNeeded()
    view.layoutIfNeeded()
    #expect(view.contentOffset == offset)
    view.tick(by: 10)
    let expected = 3 * (pow(0.998, 10) - 1) / log(0.998)
    #expect(abs(view.contentOffset - expected) < 1e-9)
  }

  @Test func aFlingIsClampedAtTheEnd() {
    let source = TestDataSource(count: 30)
    let view = makeCollectionView(
      source, layout: ListLayout(estimatedItemHeight: 2), width: 20, height: 40)
    source.clearLog()
    view.beginDrag()
    view.endDrag(velocity: 5)
    _ = runUntilIdle(view)
    #expect(view.contentOffset == 20)
    #expect(source.scrollEvents.last == "didEndDecelerating")
    view.beginDrag()
    view.drag(by: 100)
    #expect(view.contentOffset == 20)
    view.endDrag(velocity: 5)
    #expect(source.scrollEvents.last == "didEndDragging(willDecelerate: false)")
    view.beginDrag()
    view.drag(by: -100)
    #expect(view.contentOffset == 0)
  }

  @Test func touchingDownStopsAFling() {
    let (source, view) = longList()
    view.beginDrag()
    view.endDrag(velocity: 3)
    view.tick(by: 50)
    let offset = view.contentOffset
    view.beginDrag()
    view.tick(by: 50)
    #expect(view.contentOffset == offset)
    #expect(view.isDragging)
    #expect(!source.scrollEvents.contains("didEndDecelerating"))
  }

  @Test func animatedScrollsGlideAddUpAndLandExactly() {
    let (source, view) = longList()
    view.scroll(by: 7, animated: true)
    view.tick(by: 16)
    #expect(view.contentOffset > 0 && view.contentOffset < 7)
    view.scroll(by: 7, animated: true)
    _ = runUntilIdle(view)
    #expect(view.contentOffset == 14)
    #expect(source.scrollEvents.last == "didEndScrollingAnimation")
    view.pageDown()
    _ = runUntilIdle(view)
    #expect(view.contentOffset == 54)
    view.pageUp(animated: false)
    #expect(view.contentOffset == 14)
    view.scroll(by: -1_000, animated: true)
    _ = runUntilIdle(view)
    #expect(view.contentOffset == 0)
  }

  @Test func scrollToItemRejectsIndexPathsThatDoNotExist() {
    let (_, view) = longList()
    #expect(throws: CollectionError.invalidIndexPath(IndexPath(item: 10_000, section: 0))) {
      try view.scrollToItem(IndexPath(item: 10_000, section: 0), at: .top)
    }
    #expect(throws: CollectionError.invalidIndexPath(IndexPath(item: 0, section: 1))) {
      try view.scrollToItem(IndexPath(item: 0, section: 1), at: .top)
    }
  }

  @Test func nonFiniteInputIsIgnored() {
    let (_, view) = longList()
    view.drag(by: .nan)
    view.scroll(by: .infinity, animated: false)
    view.tick(by: .nan)
    view.endDrag(velocity: .infinity)
    #expect(view.contentOffset == 0)
  }
}
