import Foundation
import Hummingbird
import TesseraUtilities

/// HTTP validators and freshness: strong ETags from content, a fixed Last-Modified (generated
/// content never changes for a seed), `Cache-Control: max-age`, and 304 on revalidation.
enum HTTPCaching {
  /// A strong validator: the stable hash of the body, quoted.
  static func etag(for bytes: some Sequence<UInt8>) -> String {
    "\"\(StableHash.hex(StableHash.fnv1a(bytes)))\""
  }

  /// Whether the request's validators show the client already holds this representation.
  /// `If-None-Match` wins over `If-Modified-Since` (RFC 9110 §13.2.2).
  static func isNotModified(_ headers: HTTPFields, etag: String, lastModified: Date) -> Bool {
    if let match = headers[.ifNoneMatch] {
      let tags = match.split(separator: ",").map {
        let tag = $0.trimmingCharacters(in: .whitespaces)
        return tag.hasPrefix("W/") ? String(tag.dropFirst(2)) : tag
      }
      return tags.contains("*") || tags.contains(etag)
    }
    if let since = headers[.ifModifiedSince].flatMap({ HTTPDate.parse($0, now: Date()) }) {
      return lastModified.timeIntervalSince1970.rounded(.down) <= since.timeIntervalSince1970
    }
    return false
  }
}
