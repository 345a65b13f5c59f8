import Foundation

/// What to load, at which size, how urgently and from which caches.
///
/// Requests are values: two equal requests are the same work, which is what coalescing,
/// the memory cache and the disk cache key on.
public struct ImageRequest: Hashable, Sendable, CustomStringConvertible {
  /// How the decoded bitmap is fitted into `targetSize`.
  public enum ContentMode: Hashable, Sendable {
    /// Scale down (never up) to fit inside the box, keeping the aspect ratio.
    case aspectFit
    /// Scale to cover the box and crop the centre to exactly the box.
    case aspectFill
    /// Scale to exactly the box, ignoring the aspect ratio.
    case exact
  }

  /// Urgency. Higher priorities leave every queue first, and a waiting request's priority can
  /// change (a cell scrolled out of view demotes its request).
  public enum Priority: Int, Comparable, Hashable, Sendable, CaseIterable {
    case veryLow = 0
    case low = 1
    case normal = 2
    case high = 3
    case veryHigh = 4

    /// Less urgent first: `.veryLow < .low < .normal < .high < .veryHigh`.
    public static func < (lhs: Priority, rhs: Priority) -> Bool { lhs.rawValue < rhs.rawValue }
  }

  /// Which caches a request may read. Every successful load is stored in the caches whatever
  /// the policy (the disk cache still honours `Cache-Control: no-store`).
  public enum CachePolicy: Hashable, Sendable {
    /// Memory, then disk (honouring HTTP freshness and revalidating stale entries), then network.
    case useCache
    /// Ignore both caches and load from the source again.
    case reload
    /// Memory, then disk (even stale), never the network: a miss fails with `.notInCache`.
    case onlyFromCache
  }

  /// Where a request's bytes come from. It decides which URL schemes and which image formats
  /// the request may reach: bytes from a server we do not control never open a local file and
  /// never reach a decoder beyond the photo formats.
  public enum Source: Hashable, Sendable, CustomStringConvertible {
    /// A server: http(s) URLs only, and only photo formats (JPEG, PNG, WebP, GIF, HEIF/AVIF).
    /// The default, and what every feed's items are.
    case network
    /// A folder the user chose on this machine: `file:` URLs only, read from regular files
    /// (never through a symbolic link, never a FIFO or device) up to the byte limit; TIFF and
    /// JPEG XL besides the photo formats.
    case localFolder

    /// "the network" or "a local folder", as error messages say it.
    public var description: String {
      switch self {
      case .network: "the network"
      case .localFolder: "a local folder"
      }
    }
  }

  /// The image's address: http(s) for `.network`, `file:` for `.localFolder`.
  public var url: URL
  /// Where the bytes come from; see `Source`. Default `.network`.
  public var source: Source
  /// The box to decode into, in pixels; nil decodes at the original size.
  public var targetSize: PixelSize?
  /// How the image is fitted into `targetSize`. Default `.aspectFit`.
  public var contentMode: ContentMode
  /// How urgent the request is when it starts. Default `.normal`; change a running
  /// request's with `ImageTask.priority`.
  public var priority: Priority
  /// Which caches the request may read. Default `.useCache`.
  public var cachePolicy: CachePolicy
  /// HTTP header fields sent with the request (`Authorization`, a cookie). Not part of any
  /// cache key: two requests that differ only in headers are the same image. Names must be
  /// HTTP tokens and values free of control characters (`HTTPHeaderFields`), or the request
  /// fails with `.invalidRequest` before any I/O. A pipeline-wide
  /// `Configuration.requestModifier` may add more just before each download.
  public var headers: [String: String]
  /// The image's identity in the memory and disk caches in place of its URL: a presigned
  /// URL whose query changes on each call still hits the caches under a stable id. Requests
  /// with one id share one download.
  public var imageID: String?
  /// Which cache layers the request reads and writes. Default: all of them.
  public var options: Options
  /// Steps applied, in order, to the decoded image before it is cached and delivered; their
  /// identifiers are part of the memory-cache key. Default none.
  public var processors: [ImageProcessor] = []
  /// The encoded image a request made with ``init(id:data:targetSize:contentMode:priority:source:)``
  /// carries: decoded instead of fetched.
  public private(set) var data: Data?

  /// Cache layers a request leaves alone, read and write separately (a reload that must not
  /// disturb the memory cache, an image that must never reach the disk).
  public struct Options: OptionSet, Hashable, Sendable {
    /// The options' bits.
    public let rawValue: Int
    /// The options whose bits `rawValue` sets.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// The memory cache is not asked: the image is decoded (or downloaded) again.
    public static let disableMemoryCacheReads = Options(rawValue: 1 << 0)
    /// The decoded image is not stored in the memory cache.
    public static let disableMemoryCacheWrites = Options(rawValue: 1 << 1)
    /// The disk cache is not read: the bytes are downloaded again.
    public static let disableDiskCacheReads = Options(rawValue: 1 << 2)
    /// The downloaded bytes are not stored on disk (an older copy is left as it was).
    public static let disableDiskCacheWrites = Options(rawValue: 1 << 3)

    /// The options that change how the bytes are fetched (the rest change only the memory
    /// cache): requests that agree on them may share one download.
    var diskOptions: Options { intersection([.disableDiskCacheReads, .disableDiskCacheWrites]) }
  }

  /// A request for `url`; every other parameter has the default its property describes.
  public init(
    url: URL, targetSize: PixelSize? = nil, contentMode: ContentMode = .aspectFit,
    priority: Priority = .normal, cachePolicy: CachePolicy = .useCache, source: Source = .network,
    headers: [String: String] = [:], imageID: String? = nil, options: Options = []
  ) {
    self.url = url
    self.headers = headers
    self.imageID = imageID
    self.options = options
    self.source = source
    self.targetSize = targetSize
    self.contentMode = contentMode
    self.priority = priority
    self.cachePolicy = cachePolicy
  }

  /// A request to decode `data`, bytes the caller already holds (an upload, a database
  /// blob), through the pipeline: shared with every request of the same `id` and size while
  /// it decodes, and kept in the memory cache under `id` (never on disk: the caller has the
  /// bytes). The bytes are held to `source`'s rules: by default a network's, so only the
  /// photo decoders read them; say `.localFolder` for bytes as trusted as the user's files.
  public init(
    id: String, data: Data, targetSize: PixelSize? = nil, contentMode: ContentMode = .aspectFit,
    priority: Priority = .normal, source: Source = .network
  ) {
    var components = URLComponents()
    components.scheme = "tessera-data"
    components.path = id
    self.init(
      url: components.url ?? URL(fileURLWithPath: "/"), targetSize: targetSize,
      contentMode: contentMode, priority: priority, source: source, imageID: id,
      options: .disableDiskCacheWrites)
    self.data = data
  }

  /// "ImageRequest(URL SIZE MODE PRIORITY)", with the source when it is not the network.
  public var description: String {
    let size = targetSize.map { " \($0)" } ?? ""
    let origin = source == .network ? "" : " from \(source)"
    return "ImageRequest(\(url.absoluteString)\(size) \(contentMode) \(priority)\(origin))"
  }

  /// What names the image in the caches: its ``imageID``, else its URL.
  public var cacheKey: String { imageID ?? url.absoluteString }

  /// Whether the memory cache may serve this request: not a `.reload`, not one that disables
  /// memory-cache reads, and not a network request naming a local file (never loaded, so
  /// never served either).
  var readsMemoryCache: Bool {
    cachePolicy != .reload && !options.contains(.disableMemoryCacheReads)
      && (source == .localFolder || !url.isFileURL)
  }

  /// The key of the decoded image in the memory cache: same image, same size, same fit.
  public var memoryCacheKey: MemoryCacheKey {
    MemoryCacheKey(
      url: cacheKey, targetSize: targetSize, contentMode: contentMode,
      processors: processors.map(\.identifier).joined(separator: "|"))
  }

  /// The key of the encoded bytes on disk.
  var diskKey: String { cacheKey }
}

/// Identifies one decoded image in the memory cache. O(length of the URL) to hash.
public struct MemoryCacheKey: Hashable, Sendable, CustomStringConvertible {
  /// The request's ``ImageRequest/cacheKey``: its image id, else its URL as text.
  public let url: String
  /// The request's box; nil for the original size.
  public let targetSize: PixelSize?
  /// The request's fit.
  public let contentMode: ImageRequest.ContentMode
  /// The request's processors' identifiers, joined; empty for none.
  public let processors: String

  /// The key of the image decoded from `url` into `targetSize` with `contentMode`, then
  /// processed as `processors` (identifiers, joined) says.
  public init(
    url: String, targetSize: PixelSize?, contentMode: ImageRequest.ContentMode,
    processors: String = ""
  ) {
    self.url = url
    self.targetSize = targetSize
    self.contentMode = contentMode
    self.processors = processors
  }

  /// "URL SIZE", or "URL original", and the processors.
  public var description: String {
    "\(url) \(targetSize.map(\.description) ?? "original")"
      + (processors.isEmpty ? "" : " " + processors)
  }
}
