import Foundation
import TesseraCollection
import TesseraImageBinding
import TesseraImages
import Testing

/// The `ImageLoading` over a pipeline: counts, main-actor completions, cancellation.
@MainActor
@Suite(.timeLimit(.minutes(1))) struct PipelineImageLoaderTests {
  private let data = HeldDataLoader()
  private let signal = MainActorSignal()
  private let loader: PipelineImageLoader

  init() {
    loader = PipelineImageLoader(pipeline: makePipeline(data))
    loader.onSettled = { [signal] in signal.check() }
  }

  @Test func aLoadIsInFlightUntilItsImageArrives() async throws {
    var result: Result<Image, any Error>?
    _ = loader.loadImage(for: TestImages.request("p3")) { result = $0 }
    #expect(loader.inFlight == 1)
    await data.wait { $0.held.contains("p3.png") }
    #expect(result == nil)
    data.release("p3.png")
    await signal.wait { [loader] in loader.inFlight == 0 }
    let image = try #require(try result?.get())
    #expect(TestImages.item(of: image) == "p3")
    #expect((loader.loaded, loader.failed) == (1, 0))
    // Now in memory: the synchronous path answers.
    #expect(loader.cachedImage(for: TestImages.request("p3")) == image)
  }

  @Test func aFailureIsCountedAndSaysWhy() async throws {
    var result: Result<Image, any Error>?
    _ = loader.loadImage(for: TestImages.request("p1")) { result = $0 }
    await data.wait { $0.held.contains("p1.png") }
    data.release("p1.png", with: .success(DataResponse(statusCode: 500)))
    await signal.wait { [loader] in loader.inFlight == 0 }
    #expect((loader.loaded, loader.failed) == (0, 1))
    let error = try #require(result.flatMap { if case .failure(let e) = $0 { e } else { nil } })
    #expect(String(describing: error).contains("500"))
  }

  @Test func cancellingStopsTheDownloadAndCountsNeitherLoadedNorFailed() async throws {
    var result: Result<Image, any Error>?
    let cancellation = loader.loadImage(for: TestImages.request("p2")) { result = $0 }
    await data.wait { $0.held.contains("p2.png") }
    cancellation.cancel()
    await data.wait { $0.cancelled == ["p2.png"] }
    await signal.wait { [loader] in loader.inFlight == 0 }
    #expect((loader.loaded, loader.failed) == (0, 0))
    let error = try #require(result.flatMap { if case .failure(let e) = $0 { e } else { nil } })
    #expect(error as? ImagePipelineError == .cancelled)
  }

  @Test func aSlotBoundToACachedImageShowsItBeforeBindReturns() async throws {
    _ = loader.loadImage(for: TestImages.request("p5")) { _ in }
    await data.wait { $0.held.contains("p5.png") }
    data.release("p5.png")
    await signal.wait { [loader] in loader.inFlight == 0 }
    let slot = ImageSlot<Image>()
    var changes: [ImageSlot<Image>.Content] = []
    slot.onChange = { changes.append($0) }
    slot.bind(item: "p5", request: TestImages.request("p5"), loader: loader)
    #expect(slot.image.map { TestImages.item(of: $0) } == "p5")
    // Straight to the image: no placeholder first, and no load started.
    #expect(changes.count == 1)
    #expect(loader.inFlight == 0)
    #expect(data.snapshot.calls == ["p5.png"])
  }
}
