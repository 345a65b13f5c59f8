import Foundation
import Logging
import TesseraUtilities

extension ImagePipeline {
  /// What a pipeline loads with, caches in, and how much it does at once.
  public struct Configuration: Sendable {
    /// Fetches the bytes of http(s) URLs. Default: `defaultDataLoader`.
    public var dataLoader: any DataLoading
    /// Decoded images, for same-frame hits. Default: `MemoryCache()`; nil keeps none. Any
    /// `ImageCaching` may stand in.
    public var memoryCache: (any ImageCaching)?
    /// Downloaded bytes with their HTTP caching metadata. Default: none
    /// (`ImagePipeline.shared` has one in `DiskCache.defaultDirectory`). Any `DataCaching`
    /// may stand in.
    public var diskCache: (any DataCaching)?
    /// The freedesktop.org thumbnail folders, read before a local-folder original is decoded
    /// and written after (`ImageRequest.Source.localFolder` requests with a target size of
    /// at most 1,024 px only). Default: `ThumbnailCache()`, the user's own
    /// (`$XDG_CACHE_HOME/thumbnails`), shared with file managers; nil reads and writes none.
    public var thumbnailCache: ThumbnailCache?
    /// Downloads at once (the rest wait in priority order). Default 6, like browsers per host.
    public var maxConcurrentDownloads: Int
    /// Decodes at once. Default: the number of active cores.
    public var maxConcurrentDecodes: Int
    /// Disk-cache reads at once. Default 2: more only queue in the kernel.
    public var maxConcurrentDiskReads: Int
    /// The most one download may take, in seconds, from the moment it starts (connecting
    /// included) to its last byte; past it the download fails with `.timedOut`. Time spent
    /// waiting for a download slot does not count. The pipeline enforces it with every data
    /// loader, to the millisecond, on Linux as elsewhere. Default 30; clamped into a
    /// millisecond…an hour.
    public var requestTimeout: TimeInterval
    /// The largest response body accepted. Default 50 MiB.
    public var maxResponseBytes: Int
    /// The largest image (width × height, from its header) decoded. Default 100 megapixels.
    public var maxPixels: Int
    /// Freshness of a stored response that states none (no max-age, Expires or
    /// Last-Modified). Default an hour, which is also the most any response stays fresh
    /// (`ImageLimits.maxFreshnessLifetime`).
    public var defaultCacheLifetime: TimeInterval
    /// Where the pipeline says what went wrong: failed loads, refused sources and formats,
    /// disk-cache trouble, all at `.debug` level. Default `Logger(label: "tessera.images")`,
    /// which stays silent unless the application bootstraps swift-log at debug level.
    public var logger: Logger
    /// Changes each download's request just before it is sent: adds a token that expires,
    /// signs the URL. It runs on every download (a revalidation included), never for a cache
    /// hit or a local file. What it returns is held to the request's rules: an http(s) URL
    /// and HTTP's header fields, else the load fails; the deadline, byte limit and
    /// validators stay the pipeline's. Throwing fails the load with that error. Its time counts
    /// towards `requestTimeout`: at the deadline it is cancelled and the load fails with
    /// `.timedOut` (a modifier that ignores cancellation is still awaited). Default nil.
    public var requestModifier:
      (@Sendable (DataRequest) async throws(ImagePipelineError) -> DataRequest)?
    /// Times the download deadline (`requestTimeout`). Tests put a manual clock here.
    var clock: any Clock<Duration> = ContinuousClock()

    /// A configuration; every parameter has the default its property describes.
    public init(
      dataLoader: any DataLoading = Configuration.defaultDataLoader,
      memoryCache: (any ImageCaching)? = MemoryCache(),
      diskCache: (any DataCaching)? = nil,
      thumbnailCache: ThumbnailCache? = ThumbnailCache(),
      maxConcurrentDownloads: Int = 6,
      maxConcurrentDecodes: Int = ProcessInfo.processInfo.activeProcessorCount,
      maxConcurrentDiskReads: Int = 2,
      requestTimeout: TimeInterval = 30,
      maxResponseBytes: Int = 50 << 20,
      maxPixels: Int = 100_000_000,
      defaultCacheLifetime: TimeInterval = 3_600,
      logger: Logger = Logger(label: "tessera.images"),
      requestModifier: (@Sendable (DataRequest) async throws(ImagePipelineError) -> DataRequest)? =
        nil
    ) {
      self.requestModifier = requestModifier
      self.dataLoader = dataLoader
      self.memoryCache = memoryCache
      self.diskCache = diskCache
      self.thumbnailCache = thumbnailCache
      self.maxConcurrentDownloads = maxConcurrentDownloads
      self.maxConcurrentDecodes = maxConcurrentDecodes
      self.maxConcurrentDiskReads = maxConcurrentDiskReads
      self.requestTimeout = requestTimeout
      self.maxResponseBytes = maxResponseBytes
      self.maxPixels = maxPixels
      self.defaultCacheLifetime = defaultCacheLifetime
      self.logger = logger
    }

    /// The data loader a configuration gets unless told otherwise: one process-wide
    /// `AsyncHTTPClientDataLoader` (one connection pool for every pipeline that uses it):
    /// faster than URLSession over loopback, and with a per-request deadline, a streamed body
    /// limit and HTTP/2 (docs/BENCHMARKS.md). `URLSessionDataLoader` is in its own module,
    /// `TesseraURLSession`, so that a program that does not use it does not link libcurl.
    /// It is made on the first request: a pipeline that only reads local files (a folder
    /// gallery) never starts an HTTP client and its event-loop threads (~4 ms of a launch).
    public static var defaultDataLoader: any DataLoading { SharedHTTPLoader() }

    /// `requestTimeout` within `ImageLimits.requestDeadline` (30 s if it is not a number).
    var downloadDeadline: TimeInterval {
      requestTimeout.clamped(to: ImageLimits.requestDeadline, nan: 30)
    }
  }
}

/// The process-wide loader behind `ImagePipeline.Configuration.defaultDataLoader`, made on its
/// first request (a static `let` is initialised on first use, once, thread-safely).
struct SharedHTTPLoader: DataLoading {
  static let loader = AsyncHTTPClientDataLoader()

  func loadData(for request: DataRequest) async throws(ImagePipelineError) -> DataResponse {
    try await Self.loader.loadData(for: request)
  }

  func loadData(
    for request: DataRequest,
    reportingProgress progress: @escaping @Sendable (_ completed: Int, _ total: Int?) -> Void
  ) async throws(ImagePipelineError) -> DataResponse {
    try await Self.loader.loadData(for: request, reportingProgress: progress)
  }
}
