import TesseraCollection
import TesseraImageBinding
import TesseraImages
import Testing

/// A late image never lands in a cell that moved on, with the real pipeline behind the slot.
@MainActor
@Suite(.timeLimit(.minutes(1))) struct ReuseRaceTests {
  @Test func aLateImageNeverLandsInTheReusedCell() async throws {
    let (source, view, data) = try makeGallery()
    let signal = MainActorSignal()
    source.binder.loader.onSettled = { signal.check() }
    source.binder.onPrefetchEnded = { _, _ in signal.check() }
    await data.wait { Set(["p0.png", "p1.png", "p2.png", "p3.png"]).isSubset(of: $0.held) }
    let first = try #require(view.photoCell(at: 0))
    // Someone else still wants p0's image (a prefetch for another item showing the same
    // picture), so its download goes on after the cell stops waiting: it will arrive late.
    source.binder.startPrefetching([(id: "elsewhere", request: TestImages.request("p0"))])
    // One row down: p0's cell leaves the screen and comes back showing p4.
    view.scroll(by: 10, animated: false)
    view.layoutIfNeeded()
    #expect(view.indexPath(for: first) == IndexPath(item: 4, section: 0))
    #expect(first.item == "p4")
    // p0's bytes arrive now; the image is decoded and cached for whoever shows p0 next.
    data.release("p0.png")
    await signal.wait { !source.binder.prefetchingItems.contains("elsewhere") }
    #expect(source.binder.loader.cachedImage(for: TestImages.request("p0")) != nil)
    #expect(first.slot.image == nil)
    // Every load the cells started ends (p4's included) and each cell shows its own item.
    data.releaseAll()
    await signal.wait { source.binder.loader.inFlight == 0 }
    #expect(first.slot.image.map { TestImages.item(of: $0) } == "p4")
    for visible in view.visibleCells {
      let cell = try #require(visible.cell as? PhotoCell)
      let expected = source.ids[visible.indexPath.item]
      #expect(cell.item == expected)
      #expect(cell.slot.image.map { TestImages.item(of: $0) } == expected)
    }
    // In the reused cell's whole history, no image ever showed beside an item it is not of.
    for entry in first.shown {
      guard case .image(let image) = entry.content else { continue }
      #expect(TestImages.item(of: image) == entry.item)
    }
  }

  @Test func anImageArrivingAfterAnInsertAboveLandsInTheCellStillShowingItsItem() async throws {
    let (source, view, data) = try makeGallery()
    let signal = MainActorSignal()
    source.binder.loader.onSettled = { signal.check() }
    await data.wait { $0.held.contains("p1.png") }
    let cellOfP1 = try #require(view.photoCell(at: 1))
    source.ids.insert(contentsOf: ["n0", "n1"], at: 0)
    try view.performBatchUpdates(identifiers: [source.ids])
    view.layoutIfNeeded()
    #expect(view.indexPath(for: cellOfP1) == IndexPath(item: 3, section: 0))
    data.release("p1.png")
    await signal.wait { cellOfP1.slot.image != nil }
    #expect(cellOfP1.slot.image.map { TestImages.item(of: $0) } == "p1")
    #expect(view.photoCell(at: 1)?.slot.image == nil)
  }

  @Test func aPrefetchedImageShowsInTheFrameItsCellAppears() async throws {
    let (source, view, data) = try makeGallery()
    let signal = MainActorSignal()
    source.binder.onPrefetchEnded = { _, _ in signal.check() }
    await data.wait { $0.held.contains("p4.png") }
    data.release("p4.png")
    await signal.wait { !source.binder.prefetchingItems.contains("p4") }
    let callsBefore = data.snapshot.calls.count
    view.scroll(by: 10, animated: false)
    view.layoutIfNeeded()
    let cell = try #require(view.photoCell(at: 4))
    #expect(cell.slot.image.map { TestImages.item(of: $0) } == "p4")
    // Reset for reuse, then straight to the image: the placeholder never shows for p4.
    #expect(!cell.shown.contains { $0.item == "p4" && $0.content.isPlaceholder })
    #expect(data.snapshot.calls.count >= callsBefore)
    #expect(data.snapshot.calls.filter { $0 == "p4.png" }.count == 1)
  }
}

extension ImageSlot.Content {
  var isPlaceholder: Bool {
    if case .placeholder = self { return true }
    return false
  }
}
