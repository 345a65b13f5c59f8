import Foundation
import TesseraPhotoFormats

typealias TaskID = UInt64

/// What a task is told when it ends. Internal: public APIs map it to their own result types.
enum TaskOutcome: Sendable {
  case image(Image, ImageResponse.Origin)
  /// A prefetch-to-disk task: the bytes are in the disk cache (or were fresh there).
  case dataReady
  case failure(ImagePipelineError)
}

/// Identical downloads: the same URL read under the same cache policy.
struct FetchKey: Hashable, Sendable {
  let url: String
  let policy: ImageRequest.CachePolicy
  /// The request's disk options (`ImageRequest.Options.diskOptions`).
  var options: ImageRequest.Options = []
  /// A local video's poster side (`VideoPoster.side(for:)`): a tile's and the detail view's
  /// posters are different fetches, so a tile never waits for the large one.
  var posterSide: Int?

  init(_ request: ImageRequest) {
    url = request.diskKey
    policy = request.cachePolicy
    options = request.options.diskOptions
    if request.url.isFileURL, VideoFile.mimeType(ofPath: request.url.path) != nil {
      posterSide = VideoPoster.side(for: request.targetSize)
    }
  }
}

/// Identical decodes: the same image at the same size and fit, under the same policy.
struct DecodeKey: Hashable, Sendable {
  let image: MemoryCacheKey
  let policy: ImageRequest.CachePolicy
  var options: ImageRequest.Options = []

  init(image: MemoryCacheKey, policy: ImageRequest.CachePolicy) {
    self.image = image
    self.policy = policy
  }

  init(_ request: ImageRequest) {
    image = request.memoryCacheKey
    policy = request.cachePolicy
    options = request.options
  }
}

/// One caller waiting for a result: a public `ImageTask` or a prefetch.
struct Subscriber {
  enum Target {
    case decode(DecodeKey)
    case fetch(FetchKey)
  }

  var priority: ImageRequest.Priority
  let target: Target
  /// Told of download progress; nil for subscribers that do not follow it.
  var progress: (@Sendable (ImageTask.Progress) -> Void)? = nil
  let deliver: @Sendable (TaskOutcome) -> Void
}

/// A download shared by every decode of its URL (and every prefetch-to-disk of it).
/// Its priority is its most urgent subscriber's.
struct FetchJob {
  enum Phase {
    case waitingForDisk
    case readingDisk
    /// `stale` is a disk entry to revalidate (or replace).
    case waitingForNetwork(stale: DiskCacheEntry?)
    case downloading(Task<Void, Never>)
  }

  let id: UInt64
  let url: URL
  /// Sent with the download: the first subscriber's (headers are not part of the key).
  let headers: [String: String]
  let policy: ImageRequest.CachePolicy
  var decodes: [DecodeKey: ImageRequest.Priority] = [:]
  var dataTasks: [TaskID: ImageRequest.Priority] = [:]
  var phase: Phase

  var isUnwanted: Bool { decodes.isEmpty && dataTasks.isEmpty }

  /// O(subscribers).
  var priority: ImageRequest.Priority {
    max(decodes.values.max() ?? .veryLow, dataTasks.values.max() ?? .veryLow)
  }
}

/// A decode shared by every task that asked for the same image at the same size.
struct DecodeJob {
  enum Phase {
    /// In line for the thumbnail folders (a local-folder request with a thumbnail cache).
    case waitingForThumbnail
    case lookingUpThumbnail
    case waitingForData
    case waitingForDecoder(Data, origin: ImageResponse.Origin)
    case decoding
  }

  let id: UInt64
  let request: ImageRequest
  let fetch: FetchKey
  var subscribers: [TaskID: ImageRequest.Priority] = [:]
  var phase: Phase = .waitingForData
  /// What the decode does with the thumbnail folders: write one after decoding the original,
  /// or take the original's size from the thumbnail it decodes.
  var thumbnail: ThumbnailPlan?

  /// O(subscribers).
  var priority: ImageRequest.Priority { subscribers.values.max() ?? .veryLow }
}

/// Everything the pipeline knows about work in flight, guarded by one lock.
struct PipelineState {
  var nextID: UInt64 = 1
  var subscribers: [TaskID: Subscriber] = [:]
  var fetches: [FetchKey: FetchJob] = [:]
  var decodes: [DecodeKey: DecodeJob] = [:]
  var diskStage: StageQueue<FetchKey>
  var networkStage: StageQueue<FetchKey>
  var decodeStage: StageQueue<DecodeKey>
  var thumbnailStage: StageQueue<DecodeKey>
  var statistics = PipelineStatistics()
  /// `ImagePipeline.shutdown()` was called: every task fails at once with `.shutDown`.
  var shutDown = false
  /// Originals this pipeline found undecodable and recorded so: a later request for one reads
  /// the record, and is told the reason without "earlier", which means another launch.
  var failuresRecordedThisRun: Set<String> = []

  mutating func makeID() -> UInt64 {
    defer { nextID += 1 }
    return nextID
  }
}

/// Completions collected under the lock and delivered after it is released, so a completion
/// handler may call back into the pipeline.
struct Deliveries {
  private(set) var pending: [(@Sendable (TaskOutcome) -> Void, TaskOutcome)] = []

  mutating func add(_ subscriber: Subscriber, _ outcome: TaskOutcome) {
    pending.append((subscriber.deliver, outcome))
  }

  func run() {
    for (deliver, outcome) in pending { deliver(outcome) }
  }
}
