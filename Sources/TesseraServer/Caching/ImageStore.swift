import TesseraImageSynthesis
import TesseraUtilities

/// Encoded bytes and their validator.
struct EncodedImage: Sendable {
  let bytes: [UInt8]
  let etag: String
}

/// Generated images, kept encoded in a bounded LRU so a run does not re-encode them; requests
/// for an image being generated wait for that one generation instead of starting another.
///
/// At most `limiter.limit` images are synthesised at once (about one per core); requests for
/// other images wait their turn without holding a thread, so a burst of distinct originals
/// never stalls the feed and users routes. Generation runs on a Dispatch queue, off the
/// cooperative pool. Lookups are O(1); generation is O(pixels).
actor ImageStore {
  /// Paints and encodes one image; `ImageSynthesizer.encode` unless a test stands in.
  typealias Generator = @Sendable (ImageKey, UInt64) throws -> [UInt8]

  private let seed: UInt64
  private var cache: LRUCache<ImageKey, EncodedImage>
  private var inFlight: [ImageKey: Task<EncodedImage, any Error>] = [:]
  private let generator: Generator
  /// Bounds the generations running at once.
  nonisolated let limiter: GenerationLimiter
  private(set) var generated = 0
  private(set) var hits = 0

  init(
    seed: UInt64, capacityBytes: Int,
    generationLimit: Int = ServerLimits.generationConcurrency,
    limiterObserver: (@Sendable (GenerationLimiter.Counts) -> Void)? = nil,
    generator: @escaping Generator = ImageSynthesizer.encode
  ) {
    self.seed = seed
    cache = LRUCache(costLimit: capacityBytes)
    limiter = GenerationLimiter(
      limit: generationLimit.clamped(to: 1...ServerLimits.maxGenerationConcurrency),
      observer: limiterObserver)
    self.generator = generator
  }

  func image(_ key: ImageKey) async throws -> EncodedImage {
    if let cached = cache.value(for: key) {
      hits += 1
      return cached
    }
    if let task = inFlight[key] {
      hits += 1
      return try await task.value
    }
    let (seed, limiter, generator) = (seed, limiter, generator)
    let task = Task.detached(priority: .userInitiated) {
      try await limiter.withSlot {
        try await BlockingWork.run {
          let bytes = try generator(key, seed)
          return EncodedImage(bytes: bytes, etag: HTTPCaching.etag(for: bytes))
        }
      }
    }
    inFlight[key] = task
    defer { inFlight[key] = nil }
    let image = try await task.value
    generated += 1
    // An image costlier than the whole cache is served but not kept: it would evict everything.
    if image.bytes.count <= cache.costLimit {
      cache.insert(image, for: key, cost: image.bytes.count)
    }
    return image
  }
}
