import Foundation
import Hummingbird
import NIOCore
import TesseraImageSynthesis
import TesseraUtilities

/// The server's routes and everything they share: the catalog, the image store, the fault
/// injector and the bandwidth limiter. Stateless apart from caches and counters, so any HTTP
/// cache can stand in front of it.
struct FeedRoutes: Sendable {
  static let feedPath = "/services/feeds/photos_public.gne"
  static let usersPath = "/users.json"

  let configuration: FeedServer.Configuration
  let catalog: Catalog
  let store: ImageStore
  let injector: FaultInjector
  let limiter = BandwidthLimiter()
  let hangs = HangGate()
  /// `host:port` for absolute links when a request names no Host.
  let fallbackHost: Locked<String>

  /// - Parameters:
  ///   - generator, limiterObserver: stand-ins for tests that hold generations and watch the
  ///     generation limiter; the real painter and no observer otherwise.
  init(
    configuration: FeedServer.Configuration,
    generator: @escaping ImageStore.Generator = ImageSynthesizer.encode,
    limiterObserver: (@Sendable (GenerationLimiter.Counts) -> Void)? = nil
  ) {
    self.configuration = configuration
    catalog = Catalog(
      seed: configuration.seed, itemCount: configuration.itemCount,
      userCount: configuration.userCount, newest: configuration.lastModified)
    store = ImageStore(
      seed: configuration.seed,
      capacityBytes: configuration.imageCacheBytes.clamped(to: 0...ServerLimits.maxImageCacheBytes),
      generationLimit: configuration.generationLimit, limiterObserver: limiterObserver,
      generator: generator)
    injector = FaultInjector(plan: configuration.faults, seed: configuration.seed)
    fallbackHost = Locked("\(configuration.host):\(configuration.port)")
  }

  func makeRouter() -> Router<ServerContext> {
    // HEAD endpoints run the GET ones (RequestLimits strips the body of every HEAD answer).
    let router = Router(context: ServerContext.self, options: .autoGenerateHeadEndpoints)
    router.add(middleware: RequestLimits())
    router.get("/") { _, _ in Response.text(.ok, Self.index) }
    router.get(RouterPath(Self.feedPath)) { request, context in
      try await feed(request, context)
    }
    router.get(RouterPath(Self.usersPath)) { request, context in
      try await users(request, context)
    }
    router.get("/photos/:file") { request, context in
      try await image(request, context, avatar: false)
    }
    router.get("/avatars/:file") { request, context in
      try await image(request, context, avatar: true)
    }
    return router
  }

  static let index = """
    Tessera feed server
    GET \(feedPath)?format=json&nojsoncallback=1[&tags=a,b][&tagmode=all|any][&page=N][&per_page=N]
    GET \(usersPath)
    GET /photos/{id}_{secret}[_{s|q|t|m|n|w|z|c|b|h|k|o}].{jpg|png|webp}
    GET /avatars/{id}[_{size}].{jpg|png|webp}
    (HEAD too, for every route: the same headers, no body.)

    """

  // MARK: Routes

  private func feed(_ request: Request, _ context: ServerContext) async throws -> Response {
    let query: FeedQuery
    do {
      query = try FeedQuery { request.uri.queryParameters.get($0) }
    } catch {
      return .text(.badRequest, error.message + "\n")
    }
    let base = baseURL(request, context)
    let catalog = catalog
    let apostrophes = configuration.escapesApostrophes
    return try await respond(
      .feed, request, context, cacheControl: "public, max-age=60", vary: configuration.links.vary
    ) {
      let text = FeedDocument.render(
        query, catalog: catalog, base: base, escapesApostrophes: apostrophes)
      let bytes = Array(text.utf8)
      let type =
        query.jsonp ? "application/javascript; charset=utf-8" : "application/json; charset=utf-8"
      return Payload(bytes: bytes, contentType: type, etag: HTTPCaching.etag(for: bytes))
    }
  }

  private func users(_ request: Request, _ context: ServerContext) async throws -> Response {
    let base = baseURL(request, context)
    let catalog = catalog
    return try await respond(
      .users, request, context, cacheControl: "public, max-age=300",
      vary: configuration.links.vary
    ) {
      let bytes = Array(UsersDocument.render(catalog: catalog, base: base).utf8)
      return Payload(
        bytes: bytes, contentType: "application/json; charset=utf-8",
        etag: HTTPCaching.etag(for: bytes))
    }
  }

  private func image(
    _ request: Request, _ context: ServerContext, avatar: Bool
  ) async throws -> Response {
    let name = context.parameters.get("file") ?? ""
    let parsed =
      avatar
      ? ImageFileName.avatar(name, userCount: catalog.userCount)
      : ImageFileName.photo(name, catalog: catalog)
    guard let parsed else { return .text(.notFound, "no such image\n") }
    let key = ImageKey(
      kind: avatar ? .avatar : .photo, id: parsed.id, variant: parsed.variant,
      format: parsed.format)
    let store = store
    return try await respond(
      .images, request, context, cacheControl: "public, max-age=86400, immutable"
    ) {
      let image = try await store.image(key)
      return Payload(bytes: image.bytes, contentType: parsed.format.contentType, etag: image.etag)
    }
  }

  // MARK: Answering, with caching and faults

  struct Payload {
    let bytes: [UInt8]
    let contentType: String
    let etag: String
  }

  /// Applies this request's faults around `payload`: delay, hang, failure, then validators
  /// (304), then body mutations, then throttled or dropped delivery.
  private func respond(
    _ target: FaultPlan.Targets, _ request: Request, _ context: ServerContext,
    cacheControl: String, vary: String? = nil,
    payload make: @Sendable () async throws -> Payload
  ) async throws -> Response {
    let faults = injector.decide(target, request: "GET \(request.uri.description)")
    let decision = faults?.1 ?? .clean
    if decision.delay > .zero { try await Task.sleep(for: decision.delay) }
    if decision.hang {
      // Never answers; the server's stop opens the gate, and the connection closes unanswered.
      await hangs.wait()
      context.channel.close(promise: nil)
      throw DroppedConnection()
    }
    switch decision.failure {
    case .serverError: return .text(.internalServerError, "injected failure\n")
    case .notFound: return .text(.notFound, "injected not found\n")
    case .droppedConnection, nil: break
    }
    let payload = try await make()
    var headers: HTTPFields = [
      .eTag: payload.etag,
      .lastModified: HTTPDate.format(configuration.lastModified),
      .cacheControl: cacheControl,
    ]
    // A cache in front must keep one copy per name the links were written for.
    if let vary { headers[.vary] = vary }
    if HTTPCaching.isNotModified(
      request.headers, etag: payload.etag, lastModified: configuration.lastModified)
    {
      return Response(status: .notModified, headers: headers)
    }
    var bytes = payload.bytes
    if decision.corrupt { BodyFaults.corrupt(&bytes, seed: decision.bodySeed) }
    if decision.truncate { BodyFaults.truncate(&bytes, seed: decision.bodySeed) }
    headers[.contentType] =
      decision.wrongContentType ? "text/html; charset=utf-8" : payload.contentType
    let bandwidth = faults?.0.bandwidth
    let drop = decision.failure == .droppedConnection
    guard bandwidth != nil || drop else {
      return Response(
        status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }
    let body = bytes
    let limiter = limiter
    let channel = context.channel
    return Response(
      status: .ok, headers: headers,
      body: ResponseBody(contentLength: body.count) { writer in
        let sent = drop ? body.count / 2 : body.count
        var offset = 0
        while offset < sent {
          let end = min(sent, offset + 16 * 1024)
          if let bandwidth {
            try await Task.sleep(
              for: await limiter.reserve(end - offset, bytesPerSecond: bandwidth))
          }
          try await writer.write(ByteBuffer(bytes: body[offset..<end]))
          offset = end
        }
        if drop {
          channel.close(promise: nil)
          throw DroppedConnection()
        }
        try await writer.finish(nil)
      })
  }

  struct DroppedConnection: Error {}

  /// The base of this request's links, as `configuration.links` decides from its headers
  /// and the connection's peer.
  func baseURL(_ request: Request, _ context: ServerContext) -> String {
    let peer = context.channel.remoteAddress?.ipAddress.flatMap { IPAddress($0) }
    return configuration.links.base(
      headers: LinkOrigin.Headers(request), peer: peer, bound: fallbackHost.withLock { $0 })
  }
}

/// Body mutations of the corrupt and truncate faults, seeded by the request's decision.
enum BodyFaults {
  /// Overwrites an eighth of the body, somewhere in its middle half, with seeded bytes.
  static func corrupt(_ bytes: inout [UInt8], seed: UInt64) {
    guard bytes.count >= 8 else {
      for index in bytes.indices { bytes[index] ^= 0xFF }
      return
    }
    var random = SplitMix64(seed: seed, 0xC0)
    let span = max(1, bytes.count / 8)
    let start = bytes.count / 4 + Int(random.next() % UInt64(max(1, bytes.count / 2 - span)))
    for index in start..<min(bytes.count, start + span) {
      bytes[index] = UInt8(truncatingIfNeeded: random.next())
    }
  }

  /// Keeps a seeded 20–80 % of the body.
  static func truncate(_ bytes: inout [UInt8], seed: UInt64) {
    var random = SplitMix64(seed: seed, 0x7C)
    let share = Double(bytes.count) * (0.2 + 0.6 * random.unit())
    let keep = Int(clamping: share.rounded(.towardZero), to: 0...bytes.count)
    bytes.removeSubrange(keep...)
  }
}
