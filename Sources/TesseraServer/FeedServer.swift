import Foundation
import Hummingbird
import Logging
import ServiceLifecycle
import TesseraImageSynthesis
import TesseraUtilities

/// The feed + image server: a Flickr-compatible public feed, a users list and the generated
/// images they point to, with HTTP caching and seeded fault injection.
///
/// ```swift
/// let server = FeedServer(configuration: .init(port: 0, itemCount: 10_000, seed: 7))
/// let baseURL = try await server.start()   // http://127.0.0.1:PORT/
/// … server.feedURL, server.usersURL …
/// await server.stop()
/// ```
public final class FeedServer: Sendable {
  public struct Configuration: Sendable {
    /// The address to bind; loopback unless said otherwise.
    public var host: String
    /// 0 picks any free port; `start()` answers the one bound.
    public var port: Int
    /// Photos in the feed, ids 1…itemCount, newest first.
    public var itemCount: Int
    /// Users in the users JSON.
    public var userCount: Int
    public var faults: FaultPlan
    /// Everything generated — images, titles, tags, fault decisions — derives from it.
    public var seed: UInt64
    /// Memory for encoded images, least recently used evicted first.
    public var imageCacheBytes: Int
    /// Flickr's bug of escaping `'` as `\'` (invalid JSON); on, like the real feed.
    public var escapesApostrophes: Bool
    /// `Last-Modified` of everything served, and the newest photo's publication date.
    public var lastModified: Date
    /// Images synthesised at once (clamped into 1…`ServerLimits.maxGenerationConcurrency`);
    /// one per core by default.
    public var generationLimit: Int
    /// Where the feed's links point: `--public-url`, forwarded headers from trusted proxies,
    /// the request's `Host`, or the bound address (see `LinkOrigin`).
    public var links: LinkOrigin

    /// Counts are checked by `start()` against `ServerLimits`; code that builds the routes
    /// without starting clamps them instead.
    public init(
      host: String = "127.0.0.1", port: Int = 0, itemCount: Int = 10_000, userCount: Int = 1_000,
      faults: FaultPlan = .none, seed: UInt64 = 1, imageCacheBytes: Int = 256 << 20,
      escapesApostrophes: Bool = true,
      lastModified: Date = Date(timeIntervalSince1970: 1_717_243_200),
      generationLimit: Int = ServerLimits.generationConcurrency,
      links: LinkOrigin = LinkOrigin()
    ) {
      self.generationLimit = generationLimit
      self.links = links
      self.host = host
      self.port = port
      self.itemCount = itemCount
      self.userCount = userCount
      self.faults = faults
      self.seed = seed
      self.imageCacheBytes = imageCacheBytes
      self.escapesApostrophes = escapesApostrophes
      self.lastModified = lastModified
    }
  }

  /// Why the server did not start: a configuration outside `ServerLimits`, or a failed bind.
  public struct StartError: Error, CustomStringConvertible {
    public let description: String
  }

  public let configuration: Configuration
  let routes: FeedRoutes
  private let running = Locked<Running?>(nil)

  private struct Running {
    let task: Task<Void, any Error>
    let group: ServiceGroup
    let baseURL: URL
  }

  /// How long `stop()` lets answers in flight finish before cancelling them.
  static let gracePeriod = Duration.seconds(2)

  public init(configuration: Configuration = .init()) {
    self.configuration = configuration
    routes = FeedRoutes(configuration: configuration)
  }

  /// Binds and starts serving; answers `http://HOST:PORT/` once connections are accepted.
  /// Calling it again while running answers the same URL. `start()` and `stop()` are meant to
  /// be called from one task, not raced against each other.
  @discardableResult
  public func start() async throws -> URL {
    if let url = baseURL { return url }
    if let problem = configuration.problem { throw StartError(description: problem) }
    routes.hangs.close()
    let (ports, portContinuation) = AsyncStream<Int>.makeStream()
    var logger = Logger(label: "tessera.server")
    logger.logLevel = .warning
    let app = Application(
      router: routes.makeRouter(),
      configuration: .init(
        address: .hostname(configuration.host, port: configuration.port),
        serverName: "tessera"),
      onServerRunning: { channel in
        portContinuation.yield(channel.localAddress?.port ?? 0)
        portContinuation.finish()
      },
      logger: logger)
    let group = ServiceGroup(
      configuration: .init(services: [app], logger: logger))
    let task = Task {
      defer { portContinuation.finish() }
      try await group.run()
    }
    var bound: Int?
    for await port in ports { bound = port }
    guard let bound, bound > 0 else {
      let reason: String
      do {
        try await task.value
        reason = "the server stopped before listening"
      } catch {
        reason = String(describing: error)
      }
      throw StartError(
        description: "can't listen on \(configuration.host):\(configuration.port): \(reason)")
    }
    let host = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
    guard let url = URL(string: "http://\(host):\(bound)/") else {
      task.cancel()
      throw StartError(description: "can't form a URL for \(host):\(bound)")
    }
    routes.fallbackHost.withLock { $0 = "\(host):\(bound)" }
    running.withLock { $0 = Running(task: task, group: group, baseURL: url) }
    return url
  }

  /// Stops accepting, lets answers in flight finish (hanging ones are released and their
  /// connections closed unanswered) and waits for the server to wind down. Idempotent.
  ///
  /// Shutdown is graceful rather than a cancellation: cancelling NIO's accept loop while a
  /// connection is queued traps (swift-nio#2637). Only answers still running after
  /// `gracePeriod` (a long latency, a slow throttled body) are cancelled.
  public func stop() async {
    guard
      let running = running.withLock({ state -> Running? in
        defer { state = nil }
        return state
      })
    else { return }
    await running.group.triggerGracefulShutdown()
    routes.hangs.open()
    let watchdog = Task {
      try await Task.sleep(for: Self.gracePeriod)
      running.task.cancel()
    }
    _ = await running.task.result
    watchdog.cancel()
  }

  /// `http://HOST:PORT/` while running.
  public var baseURL: URL? { running.withLock { $0?.baseURL } }

  /// The feed in Flickr's JSON form (`format=json&nojsoncallback=1`), first page.
  public var feedURL: URL? { feedURL() }

  /// The feed, filtered and paged.
  public func feedURL(tags: [String] = [], page: Int? = nil, perPage: Int? = nil) -> URL? {
    guard let baseURL,
      var components = URLComponents(
        url: baseURL.appendingPathComponent(String(FeedRoutes.feedPath.dropFirst())),
        resolvingAgainstBaseURL: false)
    else { return nil }
    var items = [
      URLQueryItem(name: "format", value: "json"), URLQueryItem(name: "nojsoncallback", value: "1"),
    ]
    if !tags.isEmpty {
      items.append(URLQueryItem(name: "tags", value: tags.joined(separator: ",")))
    }
    if let page { items.append(URLQueryItem(name: "page", value: String(page))) }
    if let perPage { items.append(URLQueryItem(name: "per_page", value: String(perPage))) }
    components.queryItems = items
    return components.url
  }

  /// The users JSON.
  public var usersURL: URL? {
    baseURL?.appendingPathComponent(String(FeedRoutes.usersPath.dropFirst()))
  }

  /// The URL of photo `id` at a Flickr size suffix ("m", "z", "" for 500 px, "o" original).
  public func imageURL(id: Int, size: String = "m", format: ImageFormat? = nil) -> URL? {
    guard let baseURL else { return nil }
    return baseURL.appendingPathComponent(
      GeneratedImages.path(id: id, size: size, format: format, seed: configuration.seed))
  }

  /// The faults in force.
  public var faults: FaultPlan { routes.injector.plan }

  /// Replaces the faults in force, and restarts the per-request attempt counts so decisions
  /// match a fresh server started with this plan.
  public func setFaults(_ plan: FaultPlan) {
    routes.injector.reset(to: plan)
  }

  /// Images encoded so far, and answers served from the image cache.
  public func imageStatistics() async -> (generated: Int, cacheHits: Int) {
    (await routes.store.generated, await routes.store.hits)
  }

  /// Requests the hang fault is holding right now: what a test waits for before it acts
  /// during a hang (never a sleep).
  package var hangingRequestCount: Int { routes.hangs.waiting }
}
