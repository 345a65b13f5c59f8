import TesseraCollection
import TesseraImageBinding
import TesseraImages
import Testing

/// Prefetches follow the collection view's prefetch window and are remembered by item.
@MainActor
@Suite(.timeLimit(.minutes(1))) struct PrefetchByIdentifierTests {
  private func ids(_ range: Range<Int>, _ prefix: String = "p") -> Set<String> {
    Set(range.map { "\(prefix)\($0)" })
  }

  /// The items the collection view has announced and not withdrawn, by identifier.
  private func announced(_ view: CollectionView, _ source: PhotoSource) -> Set<String> {
    Set(view.prefetchedItemRanges.flatMap { $0 }.map { source.ids[$0] })
  }

  @Test func theItemsOfTheWindowArePrefetched() async throws {
    let (source, view, data) = try makeGallery()
    // 4 rows on screen, 2 screens ahead: p4…p11.
    #expect(source.binder.prefetchingItems == ids(4..<12))
    #expect(source.binder.prefetchingItems == announced(view, source))
    let expected = Set((ids(0..<12)).map { "\($0).png" })
    await data.wait { $0.held == expected }
    #expect(source.binder.prefetchRequest(for: "p4")?.priority == .low)
  }

  @Test func aCellThatShowsAnItemStopsItsPrefetchButNotItsDownload() async throws {
    let (source, view, data) = try makeGallery()
    let signal = MainActorSignal()
    source.binder.loader.onSettled = { signal.check() }
    await data.wait { $0.held.contains("p4.png") }
    view.scroll(by: 10, animated: false)
    view.layoutIfNeeded()
    #expect(!source.binder.prefetchingItems.contains("p4"))
    #expect(source.binder.prefetchingItems == announced(view, source))
    // The cell's request joined the prefetch's download: still one call, not cancelled.
    data.release("p4.png")
    let cell = try #require(view.photoCell(at: 4))
    await signal.wait { cell.slot.image != nil }
    #expect(cell.slot.image.map { TestImages.item(of: $0) } == "p4")
    #expect(data.snapshot.calls.filter { $0 == "p4.png" }.count == 1)
    #expect(!data.snapshot.cancelled.contains("p4.png"))
  }

  @Test func prefetchesAreWithdrawnByIdentifierAfterAnInsertAbove() async throws {
    let (source, view, data) = try makeGallery()
    await data.wait { $0.held.contains("p11.png") }
    // Three items arrive above: every announced item's index path moves down by three.
    source.ids.insert(contentsOf: ["n0", "n1", "n2"], at: 0)
    try view.performBatchUpdates(identifiers: [source.ids])
    view.layoutIfNeeded()
    // The screen stays on p0…p3; the new items sit in the window behind it.
    #expect(view.photoCell(at: 3)?.item == "p0")
    #expect(source.binder.prefetchingItems == ids(4..<12).union(ids(0..<3, "n")))
    #expect(source.binder.prefetchingItems == announced(view, source))
    // Back to the top, scrolling up: n0…n2 come on screen (their cells take over their
    // prefetches), the window turns round and p5…p11 fall out of it, withdrawn at their new
    // index paths 8…14. Kept by index (as announced: 4…11), the withdrawal would have found
    // only p8…p11 and left p5…p7 downloading.
    view.scroll(by: -view.contentOffset, animated: false)
    view.layoutIfNeeded()
    #expect(source.binder.prefetchingItems == announced(view, source))
    #expect(source.binder.prefetchingItems == ["p4"])
    let withdrawn = Set(ids(5..<12).map { "\($0).png" })
    await data.wait { withdrawn.isSubset(of: $0.cancelled) }
    // Besides the withdrawn prefetches only the cells that left the screen (p1…p3, now in
    // the window behind it) stopped their loads; p4's prefetch and p0's cell go on.
    let cellsThatLeft: Set<String> = ["p1.png", "p2.png", "p3.png"]
    #expect(Set(data.snapshot.cancelled).subtracting(cellsThatLeft) == withdrawn)
    #expect(data.snapshot.held.isSuperset(of: ["p0.png", "p4.png"]))
  }

  @Test func aPrefetchThatEndsIsForgotten() async throws {
    let (source, _, data) = try makeGallery()
    let signal = MainActorSignal()
    var ended: [(String, ImagePipelineError?)] = []
    source.binder.onPrefetchEnded = { id, error in
      ended.append((id, error))
      signal.check()
    }
    await data.wait { $0.held.contains("p5.png") && $0.held.contains("p6.png") }
    data.release("p5.png")
    data.release("p6.png", with: .success(DataResponse(statusCode: 404)))
    await signal.wait { ended.count == 2 }
    #expect(!source.binder.prefetchingItems.contains("p5"))
    #expect(!source.binder.prefetchingItems.contains("p6"))
    #expect(ended.first { $0.0 == "p5" }.map { $0.1 == nil } == true)
    #expect(ended.first { $0.0 == "p6" }?.1 == .badStatus(404))
    #expect(source.binder.loader.cachedImage(for: TestImages.request("p5")) != nil)
  }

  @Test func itemsShowingTheSameImageShareOnePrefetch() async throws {
    let data = HeldDataLoader()
    let binder = CollectionImageBinder<String>(pipeline: makePipeline(data))
    let shared = TestImages.request("p7")
    binder.startPrefetching([(id: "a", request: shared), (id: "b", request: shared)])
    await data.wait { $0.held == ["p7.png"] }
    binder.stopPrefetching(["a"])
    #expect(binder.prefetchingItems == ["b"])
    binder.stopPrefetching(["b"])
    await data.wait { $0.cancelled == ["p7.png"] }
    #expect(data.snapshot.calls == ["p7.png"])
    #expect(binder.prefetchingItems.isEmpty)
  }

  @Test func aNewRequestForAnItemReplacesItsPrefetch() async throws {
    let data = HeldDataLoader()
    let binder = CollectionImageBinder<String>(pipeline: makePipeline(data))
    binder.startPrefetching([(id: "a", request: TestImages.request("p1"))])
    await data.wait { $0.held == ["p1.png"] }
    binder.startPrefetching([(id: "a", request: TestImages.request("p2"))])
    await data.wait { $0.cancelled == ["p1.png"] && $0.held == ["p2.png"] }
    #expect(binder.prefetchRequest(for: "a") == TestImages.request("p2"))
    binder.stopPrefetching()
    await data.wait { $0.held.isEmpty }
    #expect(binder.prefetchingItems.isEmpty)
  }

  @Test func anImageAlreadyInMemoryIsNotPrefetched() async throws {
    let data = HeldDataLoader()
    let binder = CollectionImageBinder<String>(pipeline: makePipeline(data))
    let signal = MainActorSignal()
    binder.onPrefetchEnded = { _, _ in signal.check() }
    binder.startPrefetching([(id: "a", request: TestImages.request("p3"))])
    await data.wait { $0.held == ["p3.png"] }
    data.release("p3.png")
    await signal.wait { binder.prefetchingItems.isEmpty }
    binder.startPrefetching([(id: "b", request: TestImages.request("p3"))])
    #expect(binder.prefetchingItems.isEmpty)
    #expect(data.snapshot.calls == ["p3.png"])
  }
}
