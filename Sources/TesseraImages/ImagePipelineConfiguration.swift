import Foundation

extension ImagePipeline {
  /// What a pipeline loads with, caches in, and how much it does at once.
  public struct Configuration: Sendable {
    public var dataLoader: any DataLoading
    public var memoryCache: MemoryCache?
    public var diskCache: DiskCache?
    /// Downloads at once (the rest wait in priority order). Default 6, like browsers per host.
    public var maxConcurrentDownloads: Int
    /// Decodes at once. Default: the number of active cores.
    public var maxConcurrentDecodes: Int
    /// Disk-cache reads at once. Default 2: more only queue in the kernel.
    public var maxConcurrentDiskReads: Int
    /// Seconds without progress before a download fails with `.timedOut`.
    public var requestTimeout: TimeInterval
    /// The largest response body accepted. Default 50 MiB.
    public var maxResponseBytes: Int
    /// The largest image (width × height, from its header) decoded. Default 100 megapixels.
    public var maxPixels: Int
    /// Freshness of a stored response that states none (no max-age, Expires or
    /// Last-Modified). Default an hour, which is also the most any response stays fresh
    /// (`ImageLimits.maxFreshnessLifetime`).
    public var defaultCacheLifetime: TimeInterval

    public init(
      dataLoader: any DataLoading = URLSessionDataLoader(),
      memoryCache: MemoryCache? = MemoryCache(),
      diskCache: DiskCache? = nil,
      maxConcurrentDownloads: Int = 6,
      maxConcurrentDecodes: Int = ProcessInfo.processInfo.activeProcessorCount,
      maxConcurrentDiskReads: Int = 2,
      requestTimeout: TimeInterval = 30,
      maxResponseBytes: Int = 50 << 20,
      maxPixels: Int = 100_000_000,
      defaultCacheLifetime: TimeInterval = 3_600
    ) {
      self.dataLoader = dataLoader
      self.memoryCache = memoryCache
      self.diskCache = diskCache
      self.maxConcurrentDownloads = maxConcurrentDownloads
      self.maxConcurrentDecodes = maxConcurrentDecodes
      self.maxConcurrentDiskReads = maxConcurrentDiskReads
      self.requestTimeout = requestTimeout
      self.maxResponseBytes = maxResponseBytes
      self.maxPixels = maxPixels
      self.defaultCacheLifetime = defaultCacheLifetime
    }
  }
}
