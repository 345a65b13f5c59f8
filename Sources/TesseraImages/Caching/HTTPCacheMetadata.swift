import Foundation
import TesseraUtilities

/// What HTTP said about caching a response: whether it may be stored, until when it is
/// fresh, and the validators that let a stale copy be revalidated with a conditional request.
///
/// Freshness follows RFC 9111 for a private cache: `no-store` is never stored, `no-cache`
/// is stale at once, `max-age` (minus `Age`) or else `Expires` sets the lifetime, and with
/// neither the heuristic is 10% of the time since `Last-Modified` or, without
/// that either, `defaultLifetime`. Whatever the headers say, a lifetime is clamped into
/// `0...ImageLimits.maxFreshnessLifetime` (an hour), and validators longer than
/// `ImageLimits.maxHeaderValueBytes` are not kept.
public struct HTTPCacheMetadata: Codable, Hashable, Sendable {
  /// When the response was stored (or last revalidated).
  public var storedAt: Date
  /// Until when it may be used without asking the server.
  public var freshUntil: Date
  /// The response's `ETag`, sent back as `If-None-Match`.
  public var etag: String?
  /// The response's `Last-Modified`, sent back as `If-Modified-Since`.
  public var lastModified: String?
  /// The response's `Content-Type`.
  public var contentType: String?

  /// Metadata with these dates and validators.
  public init(
    storedAt: Date, freshUntil: Date, etag: String? = nil, lastModified: String? = nil,
    contentType: String? = nil
  ) {
    self.storedAt = storedAt
    self.freshUntil = freshUntil
    self.etag = etag
    self.lastModified = lastModified
    self.contentType = contentType
  }

  /// Whether the stored bytes may be used without asking the server: from `storedAt` until
  /// `freshUntil`, and never longer than `ImageLimits.maxFreshnessLifetime` after `storedAt`
  /// (metadata read back from disk is not trusted to keep that rule: a stored date in the far
  /// future, or one that is not finite, means stale).
  public func isFresh(at now: Date) -> Bool {
    let stored = storedAt.timeIntervalSinceReferenceDate
    let until = freshUntil.timeIntervalSinceReferenceDate
    guard stored.isFinite, until.isFinite, now >= storedAt else { return false }
    return now < min(freshUntil, storedAt.addingTimeInterval(ImageLimits.maxFreshnessLifetime))
  }

  /// Whether a conditional request can revalidate the stored bytes.
  public var canRevalidate: Bool { etag != nil || lastModified != nil }

  /// Metadata for a response received at `now`, or nil when it must not be stored.
  public static func from(
    _ response: DataResponse, at now: Date, defaultLifetime: TimeInterval
  ) -> HTTPCacheMetadata? {
    let directives = CacheControl(response.header("cache-control"))
    if directives.noStore { return nil }
    let lastModified = boundedValue(response.header("last-modified"))
    let lifetime: TimeInterval
    if directives.noCache {
      lifetime = 0
    } else if let maxAge = directives.maxAge {
      // Both are clamped delta-seconds: the difference cannot overflow.
      let age = response.header("age").flatMap(DeltaSeconds.parse) ?? 0
      lifetime = TimeInterval(max(0, maxAge - age))
    } else if let expires = response.header("expires") {
      // An unparseable Expires means "already expired" (RFC 9111 §5.3).
      let date = HTTPDate.parse(expires, now: now)
      let base = response.header("date").flatMap { HTTPDate.parse($0, now: now) } ?? now
      lifetime = date.map { $0.timeIntervalSince(base) } ?? 0
    } else if let modified = lastModified.flatMap({ HTTPDate.parse($0, now: now) }) {
      lifetime = now.timeIntervalSince(modified) / 10
    } else {
      lifetime = defaultLifetime
    }
    let bounded = lifetime.clamped(to: 0...ImageLimits.maxFreshnessLifetime)
    return HTTPCacheMetadata(
      storedAt: now, freshUntil: now.addingTimeInterval(bounded),
      etag: boundedValue(response.header("etag")), lastModified: lastModified,
      contentType: boundedValue(response.contentType))
  }

  /// A header value short enough to store and send back, or nil.
  private static func boundedValue(_ value: String?) -> String? {
    guard let value, value.utf8.count <= ImageLimits.maxHeaderValueBytes else { return nil }
    return value
  }

  /// This metadata refreshed by a 304 answer at `now`: new lifetime, and new validators
  /// where the 304 carries them.
  public func revalidated(
    by response: DataResponse, at now: Date, defaultLifetime: TimeInterval
  )
    -> HTTPCacheMetadata?
  {
    guard var fresh = HTTPCacheMetadata.from(response, at: now, defaultLifetime: defaultLifetime)
    else { return nil }
    fresh.etag = fresh.etag ?? etag
    fresh.lastModified = fresh.lastModified ?? lastModified
    fresh.contentType = contentType
    return fresh
  }
}

/// The directives of a `Cache-Control` header that a private image cache acts on.
struct CacheControl {
  var noStore = false
  var noCache = false
  /// Seconds, clamped to `ImageLimits.maxDeltaSeconds`; nil when absent or malformed.
  var maxAge: Int?

  init(_ header: String?) {
    guard let header else { return }
    for part in header.split(separator: ",") {
      let directive = part.trimmingCharacters(in: .whitespaces).lowercased()
      if directive == "no-store" {
        noStore = true
      } else if directive == "no-cache" || directive.hasPrefix("no-cache=") {
        noCache = true
      } else if directive.hasPrefix("max-age=") {
        let value = directive.dropFirst("max-age=".count).trimmingCharacters(
          in: CharacterSet(charactersIn: "\""))
        // A malformed max-age makes the response stale (RFC 9111 §4.2.1), not fresh forever.
        maxAge = DeltaSeconds.parse(value) ?? 0
      }
    }
  }
}

/// RFC 9111 delta-seconds: a non-negative decimal integer, nothing else ("1e9", "-5", "inf"
/// and "0x10" are not numbers here). Values past `ImageLimits.maxDeltaSeconds` saturate.
enum DeltaSeconds {
  /// - Complexity: O(n) in the text's length.
  static func parse(_ text: some StringProtocol) -> Int? {
    let digits = text.utf8.drop { $0 == 0x20 || $0 == 0x09 }.prefix { $0 != 0x20 && $0 != 0x09 }
    guard !digits.isEmpty, digits.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
    let trailing = text.utf8.drop { $0 == 0x20 || $0 == 0x09 }.dropFirst(digits.count)
    guard trailing.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) else { return nil }
    var value = 0
    for digit in digits {
      value = value * 10 + Int(digit - 0x30)
      if value >= ImageLimits.maxDeltaSeconds { return ImageLimits.maxDeltaSeconds }
    }
    return value
  }
}
