import Foundation
import TesseraImageSynthesis
import TesseraSimulation
import Testing

/// A script small enough to follow on paper, run for each strategy; every count below is
/// worked out by hand in the comments.
///
/// The set-up: a list of 8 items (ids 1…8, no refresh), every row 10 cells tall, a viewport
/// 120×20 — exactly two rows on screen. Frames every 10 ms. No prefetching. The network
/// answers every request after exactly 35 ms, bytes arriving at once, never failing.
/// Images are requested for a 128×256 box, fitted: the smallest Flickr size covering it is
/// "m" for items 1…4 (1: 192×240, 2: 240×192, 3: 240×192, 4: 240×180).
///
/// The script, frame by frame (t in ms):
///   t=0    rows 0–1 on screen: items 1, 2 in new cells A, B; both requested (answers at 35)
///   t=10   jump to offset 20: items 3, 4. A and B leave (recycled A first, FIFO pool), so
///          item 3 gets A and item 4 gets B; both requested (answers at 45)
///   t=20…90  nothing happens; completions of t=35 land at the t=40 frame, of t=45 at t=50
///   t=100  drag by −20: items 1, 2 again, in A and B
///   t=110  the finger lifts without speed: the scroll ends here
///   t=120…150  nothing; the run ends at t=160
/// 16 frames, 2 cells each: 32 visible cell-frames. Displays (stretches on screen): item 1
/// 0–10, item 2 0–10, item 3 10–100, item 4 10–100, item 1 100–160, item 2 100–160: six.
@MainActor
@Suite(.timeLimit(.minutes(3)))
struct HandCheckedScriptTests {
  static let script: [ScrollAction] = [
    .wait(milliseconds: 10),  // t=0
    .jump(toOffset: 20),  // t=10
    .wait(milliseconds: 80),  // t=20…90
    .drag(by: -20),  // t=100
    .release(velocity: 0),  // t=110
    .wait(milliseconds: 40),  // t=120…150
  ]

  static var configuration: SimulationConfiguration {
    var configuration = SimulationConfiguration(
      layout: .list, items: 8, seed: 7, script: script, network: .fixed(latency: 35))
    configuration.viewportWidth = 120
    configuration.viewportHeight = 20
    configuration.listRowHeights = 10...10
    configuration.frameMilliseconds = 10
    configuration.prefetchWindow = .init(aheadScreens: 0, behindScreens: 0)
    return configuration
  }

  /// Full-size RGBA bytes of items 1…4 at "m": 192×240, 240×192, 240×192, 240×180.
  static let fullSizeBytes = (192 * 240 + 240 * 192 + 240 * 192 + 240 * 180) * 4
  /// Their pixels, decoded once each on the main thread at 8 ms per megapixel.
  static let mainThreadMilliseconds = Double(192 * 240 + 240 * 192 * 2 + 240 * 180) / 1e6 * 8

  /// The bytes the server sends for items 1…4 at "m": each downloaded to completion once.
  static func bytesOfItems1To4() throws -> Int {
    try (1...4).reduce(0) { $0 + (try GeneratedImages.photo(id: $1, size: "m").bytes.count) }
  }

  static func run(_ strategy: StrategyKind) async throws -> SimulationResult {
    try await ScrollSimulator.run(
      configuration, strategy: strategy, library: SimulatedPhotoLibrary())
  }

  @Test func theSizesOnPaperAreTheServers() {
    // The premise of the byte counts below: "m" of items 1…4 has these sizes.
    #expect(GeneratedImages.size(id: 1, size: "m").map { [$0.width, $0.height] } == [192, 240])
    #expect(GeneratedImages.size(id: 2, size: "m").map { [$0.width, $0.height] } == [240, 192])
    #expect(GeneratedImages.size(id: 3, size: "m").map { [$0.width, $0.height] } == [240, 192])
    #expect(GeneratedImages.size(id: 4, size: "m").map { [$0.width, $0.height] } == [240, 180])
    // "t" is too small for the box (item 1: 80×100 would be scaled up 1.6×).
    #expect(GeneratedImages.size(id: 1, size: "t").map { [$0.width, $0.height] } == [80, 100])
  }

  /// naive: nothing is reset on reuse, completions land on the captured cell.
  ///   t=40: item 1's image lands on A (now item 3), item 2's on B (now item 4): wrong ×2.
  ///   t=50: items 3 and 4's own images replace them: 2 flashes; waits 50 − 10 = 40.
  ///   t=100: A and B come back for items 1, 2 still showing 3 and 4: wrong ×2; the
  ///          requests hit the cache (all four images are in it), answered via the main
  ///          queue, so at t=110 each cell switches to its own image: 2 flashes, waits 10.
  ///   wrong frames: t=40 and t=100 → 2; wrong cell-frames 4; flashes 4.
  ///   waits: 10, 10 (items 1, 2 leaving at t=10 unseen), 40, 40, 10, 10:
  ///          sorted 10 10 10 10 40 40; median = 4th (rank round(2.5) = 3) = 10; p95 = 40.
  ///   own image on screen: t=50…90 (5 frames) and t=110…150 (5) × 2 cells = 20 of 32:
  ///          waiting share 12/32.
  ///   requests: 2 + 2 + 2 = 6, hits 2 (t=100). Downloads: 4, no duplicate, none failed.
  ///   decoded: all four images drawn (1, 2 wrongly at t=40), each once: full-size bytes.
  @Test func naive() async throws {
    let result = try await Self.run(.naive)
    #expect(result.frames == 16)
    #expect(result.displays == 6)
    #expect(result.wrongFrames == 2)
    #expect(result.wrongCellFrames == 4)
    #expect(result.flashes == 4)
    #expect(result.placeholderMedianMilliseconds == 10)
    #expect(result.placeholderP95Milliseconds == 40)
    #expect(result.waitingShare == 12.0 / 32)
    #expect(result.imageRequests == 6)
    #expect(result.memoryHits == 2)
    #expect(result.downloadsStarted == 4)
    #expect(result.downloadsCompleted == 4)
    #expect(result.downloadsCancelled == 0)
    #expect(result.duplicateDownloads == 0)
    #expect(result.bytesDownloaded == (try Self.bytesOfItems1To4()))
    #expect(result.bytesNeverShown == 0)
    #expect(result.peakDecodedBytes == Self.fullSizeBytes)
    #expect(abs(result.mainThreadDecodeMilliseconds - Self.mainThreadMilliseconds) < 1e-9)
    #expect(result.cellsCreated == 2)
    #expect(result.itemsShown == 4)
  }

  /// seed: placeholder on reuse, the index-path check, the scroll-end trick.
  ///   t=40: completions for items 1, 2 find A, B at rows 2, 3, not 0, 1: dropped (but the
  ///         images were cached on arrival).
  ///   t=50: items 3, 4 pass the check: own images, waits 40.
  ///   t=100: A, B get the placeholder; cache hits answered at t=110: waits 10.
  ///   t=110: the lift ends the scroll: loadImagesForOnscreenRows calls cellForRowAt for
  ///          rows 0, 1, which dequeues two new cells C, D (the pool is empty) off screen:
  ///          2 more requests, both cache hits, whose completions (t=120) fail the check
  ///          (C and D have no index path). Nothing changes on screen.
  ///   wrong 0, flashes 0; waits 10 10 40 40 10 10 → median 10, p95 40; waiting 12/32.
  ///   requests 2 + 2 + 2 + 2 = 8, hits 4. Downloads 4. Cells created: A, B, C, D.
  ///   decoded: all four images drawn (3, 4 at t=50; 1, 2 at t=110), alive in the cache.
  @Test func seed() async throws {
    let result = try await Self.run(.seed)
    #expect(result.frames == 16)
    #expect(result.wrongFrames == 0)
    #expect(result.wrongCellFrames == 0)
    #expect(result.flashes == 0)
    #expect(result.placeholderMedianMilliseconds == 10)
    #expect(result.placeholderP95Milliseconds == 40)
    #expect(result.waitingShare == 12.0 / 32)
    #expect(result.imageRequests == 8)
    #expect(result.memoryHits == 4)
    #expect(result.downloadsStarted == 4)
    #expect(result.downloadsCancelled == 0)
    #expect(result.duplicateDownloads == 0)
    #expect(result.bytesDownloaded == (try Self.bytesOfItems1To4()))
    #expect(result.bytesNeverShown == 0)
    #expect(result.peakDecodedBytes == Self.fullSizeBytes)
    #expect(abs(result.mainThreadDecodeMilliseconds - Self.mainThreadMilliseconds) < 1e-9)
    #expect(result.cellsCreated == 4)
  }

  /// tessera: the pipeline, ImageSlot, cancellation (no prefetch window here).
  ///   t=10: A and B leave: their slots cancel, the pipeline drops both downloads (nobody
  ///         else wants them): 2 cancelled, 0 bytes (bytes arrive only at 35).
  ///   t=50: items 3, 4 decoded and shown: waits 40.
  ///   t=100: items 1, 2 are not in the memory cache (their downloads were cancelled): two
  ///          new downloads, answered at 135, shown at t=140: waits 40. Not duplicates: no
  ///          bytes of them had arrived before.
  ///   wrong 0, flashes 0; waits 10 10 40 40 40 40 → median 40, p95 40.
  ///   own image on screen: t=50…90 (10 cell-frames) and t=140, 150 (4): waiting 18/32.
  ///   requests 6 (binds), hits 0. Downloads 6: 2 cancelled, 4 complete.
  ///   decoded: the four images at the box's size, fitted in 128×256: 128×160, 128×102,
  ///   128×102 (102.4 rounded down), 128×96 — all in the memory cache at the end.
  @Test func tessera() async throws {
    let result = try await Self.run(.tessera)
    #expect(result.frames == 16)
    #expect(result.wrongFrames == 0)
    #expect(result.flashes == 0)
    #expect(result.placeholderMedianMilliseconds == 40)
    #expect(result.placeholderP95Milliseconds == 40)
    #expect(result.waitingShare == 18.0 / 32)
    #expect(result.imageRequests == 6)
    #expect(result.memoryHits == 0)
    #expect(result.downloadsStarted == 6)
    #expect(result.downloadsCancelled == 2)
    #expect(result.downloadsCompleted == 4)
    #expect(result.duplicateDownloads == 0)
    #expect(result.bytesDownloaded == (try Self.bytesOfItems1To4()))
    #expect(result.bytesNeverShown == 0)
    #expect(result.peakDecodedBytes == (128 * 160 + 128 * 102 * 2 + 128 * 96) * 4)
    #expect(result.mainThreadDecodeMilliseconds == 0)
    #expect(result.cellsCreated == 2)
  }
}
