import Foundation

/// What HTTP said about caching a response: whether it may be stored, until when it is
/// fresh, and the validators that let a stale copy be revalidated with a conditional request.
///
/// Freshness follows RFC 9111 for a private cache: `no-store` is never stored, `no-cache`
/// is stale at once, `max-age` (minus `Age`) or else `Expires` sets the lifetime, and with
/// neither the heuristic is 10% of the time since `Last-Modified` (at most a day) or, without
/// that either, `defaultLifetime`.
public struct HTTPCacheMetadata: Codable, Hashable, Sendable {
  public var storedAt: Date
  public var freshUntil: Date
  public var etag: String?
  public var lastModified: String?
  public var contentType: String?

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

  public func isFresh(at now: Date) -> Bool { now < freshUntil }

  /// Whether a conditional request can revalidate the stored bytes.
  public var canRevalidate: Bool { etag != nil || lastModified != nil }

  /// Metadata for a response received at `now`, or nil when it must not be stored.
  public static func from(
    _ response: DataResponse, at now: Date, defaultLifetime: TimeInterval
  ) -> HTTPCacheMetadata? {
    let directives = CacheControl(response.header("cache-control"))
    if directives.noStore { return nil }
    let lastModified = response.header("last-modified")
    let lifetime: TimeInterval
    if directives.noCache {
      lifetime = 0
    } else if let maxAge = directives.maxAge {
      let age = response.header("age").flatMap(TimeInterval.init) ?? 0
      lifetime = max(0, maxAge - age)
    } else if let expires = response.header("expires") {
      // An unparseable Expires means "already expired" (RFC 9111 §5.3).
      let date = HTTPDate.parse(expires)
      let base = response.header("date").flatMap(HTTPDate.parse) ?? now
      lifetime = max(0, date.map { $0.timeIntervalSince(base) } ?? 0)
    } else if let modified = lastModified.flatMap(HTTPDate.parse) {
      lifetime = min(max(0, now.timeIntervalSince(modified) / 10), 86_400)
    } else {
      lifetime = defaultLifetime
    }
    return HTTPCacheMetadata(
      storedAt: now, freshUntil: now.addingTimeInterval(lifetime),
      etag: response.header("etag"), lastModified: lastModified,
      contentType: response.contentType)
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
  var maxAge: TimeInterval?

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
        maxAge = TimeInterval(value)
      }
    }
  }
}

/// HTTP dates ("Sun, 06 Nov 1994 08:49:37 GMT"). A formatter is made per call: parsing is
/// rare (once per stored response) and `DateFormatter` is not Sendable.
enum HTTPDate {
  static func parse(_ text: String) -> Date? {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "GMT")
    for format in ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz"] {
      formatter.dateFormat = format
      if let date = formatter.date(from: text) { return date }
    }
    return nil
  }

  static func format(_ date: Date) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "GMT")
    formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
    return formatter.string(from: date)
  }
}
