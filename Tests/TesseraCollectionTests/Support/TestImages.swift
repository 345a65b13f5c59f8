import TesseraCollection

/// A decoded "image" that knows which item it belongs to, so a wrong one is detectable.
struct TestImage: Equatable {
  let item: Int
}

/// What a failed test load reports.
struct TestLoadFailure: Error, CustomStringConvertible {
  var description: String { "test failure" }
}

/// An image loader whose completions the test delivers by hand, in any order, even after
/// cancellation (a pipeline that cannot stop an in-flight decode).
@MainActor
final class ControlledLoader: ImageLoading {
  @MainActor
  final class Pending {
    let request: Int
    let completion: @MainActor @Sendable (Result<TestImage, any Error>) -> Void
    var cancelled = false

    init(
      request: Int,
      completion: @escaping @MainActor @Sendable (Result<TestImage, any Error>) -> Void
    ) {
      self.request = request
      self.completion = completion
    }
  }

  var cache: [Int: TestImage] = [:]
  private(set) var pending: [Pending] = []
  private(set) var startedCount = 0
  private(set) var cancelledCount = 0

  func cachedImage(for request: Int) -> TestImage? { cache[request] }

  func loadImage(
    for request: Int,
    completion: @escaping @MainActor @Sendable (Result<TestImage, any Error>) -> Void
  )
    -> ImageLoadCancellation
  {
    startedCount += 1
    let load = Pending(request: request, completion: completion)
    pending.append(load)
    return ImageLoadCancellation { [weak self] in
      load.cancelled = true
      self?.cancelledCount += 1
    }
  }

  /// Delivers pending load `index` (its image goes into the cache, as a real pipeline's would).
  func complete(at index: Int, failing: Bool = false) {
    let load = pending.remove(at: index)
    let image = TestImage(item: load.request)
    if !failing { cache[load.request] = image }
    load.completion(failing ? .failure(TestLoadFailure()) : .success(image))
  }

  func complete(request: Int) {
    if let index = pending.firstIndex(where: { $0.request == request }) { complete(at: index) }
  }

  func completeAll() {
    while !pending.isEmpty { complete(at: 0) }
  }
}
