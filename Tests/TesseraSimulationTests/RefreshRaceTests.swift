import TesseraImageSynthesis
import TesseraSimulation
import Testing

/// The seed's index-path check fooled by a reload, worked out by hand.
///
/// Set-up as in `HandCheckedScriptTests` (two 10-cell rows on screen, frames every 10 ms,
/// answers after exactly 35 ms, no prefetching), with 8 items and one refresh that adds 2
/// at the top: the feed starts as ids 3…10.
///   t=0   rows 0–1: items 3, 4 in new cells A, B; both requested (answers at 35)
///   t=10  refresh: ids are now 1…10; reloadData keeps the offset, so rows 0–1 are items
///         1, 2. A and B go back to the (empty) pool and come straight out again for rows
///         0 and 1: A for item 1, B for item 2. Both requested (answers at 45).
///   t=40  the answers for items 3 and 4 arrive. naive puts them on A and B. The seed's
///         check asks A's index path: row 0, the row it was requested for, so it passes and
///         item 3's picture shows where item 1 now is (and 4's where 2 is): wrong ×2.
///   t=50  items 1 and 2's own images replace them: 2 flashes.
///   the run ends at t=70 (frames t=0…60).
/// Displays: item 3 0–10, item 4 0–10 (waits 10, never shown), items 1, 2 from 10 (own at
/// 50: waits 40): sorted 10 10 40 40, median rank round(1.5) = 2 → 40, p95 → 40.
@MainActor
@Suite(.timeLimit(.minutes(3)))
struct RefreshRaceTests {
  static var configuration: SimulationConfiguration {
    var configuration = SimulationConfiguration(
      layout: .list, items: 8, seed: 7,
      script: [.wait(milliseconds: 10), .refresh(newItems: 2), .wait(milliseconds: 50)],
      network: .fixed(latency: 35))
    configuration.viewportHeight = 20
    configuration.listRowHeights = 10...10
    configuration.frameMilliseconds = 10
    configuration.prefetchWindow = .init(aheadScreens: 0, behindScreens: 0)
    return configuration
  }

  static func run(_ strategy: StrategyKind) async throws -> SimulationResult {
    try await ScrollSimulator.run(
      configuration, strategy: strategy, library: SimulatedPhotoLibrary())
  }

  /// Bytes of items 1…4 at "m" (each downloaded once, whole).
  static func bytesOfItems1To4() throws -> Int {
    try (1...4).reduce(0) { $0 + (try GeneratedImages.photo(id: $1, size: "m").bytes.count) }
  }

  @Test(arguments: [StrategyKind.naive, .seed])
  func theIndexPathCheckIsFooledByAReload(strategy: StrategyKind) async throws {
    let result = try await Self.run(strategy)
    #expect(result.frames == 7)
    #expect(result.displays == 4)
    #expect(result.wrongFrames == 1)
    #expect(result.wrongCellFrames == 2)
    #expect(result.flashes == 2)
    #expect(result.placeholderMedianMilliseconds == 40)
    #expect(result.placeholderP95Milliseconds == 40)
    // Own images at t=50 and 60 in 2 cells: 4 of 14 visible cell-frames.
    #expect(result.waitingShare == 10.0 / 14)
    #expect(result.downloadsStarted == 4)
    #expect(result.downloadsCancelled == 0)
    #expect(result.bytesDownloaded == (try Self.bytesOfItems1To4()))
    #expect(result.itemsShown == 4)
  }

  /// tessera: the reload takes A and B off screen, which cancels their slots and with them
  /// the downloads of items 3 and 4 (nothing else wants them; no bytes had arrived). The
  /// slots' generation tokens would have dropped a late image anyway. Items 1 and 2 show
  /// at t=50: no wrong frame, no flash, the same waits; 4 downloads, 2 of them cancelled,
  /// bytes only for items 1 and 2.
  @Test func tesseraIsNotFooled() async throws {
    let result = try await Self.run(.tessera)
    #expect(result.wrongFrames == 0)
    #expect(result.flashes == 0)
    #expect(result.placeholderMedianMilliseconds == 40)
    #expect(result.waitingShare == 10.0 / 14)
    #expect(result.downloadsStarted == 4)
    #expect(result.downloadsCancelled == 2)
    let bytes = try (1...2).reduce(0) {
      $0 + (try GeneratedImages.photo(id: $1, size: "m").bytes.count)
    }
    #expect(result.bytesDownloaded == bytes)
  }
}
