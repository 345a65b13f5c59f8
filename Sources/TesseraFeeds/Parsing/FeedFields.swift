import Foundation
import TesseraUtilities

/// Reads typed fields out of one JSON object, reporting the first problem as a `SkippedItem`.
struct FeedFields {
  let object: [String: Any]
  let index: Int
  /// Dotted prefix for nested objects ("media.").
  var prefix = ""

  /// A string that must be present.
  func required(_ key: String) throws(SkippedItem) -> String {
    guard let value = object[key], !(value is NSNull) else {
      throw SkippedItem(index: index, field: prefix + key, reason: .missing)
    }
    guard let string = value as? String else {
      throw SkippedItem(index: index, field: prefix + key, reason: .wrongType(expected: "a string"))
    }
    return string
  }

  /// A string that may be absent (or null); present with another type is still a problem.
  func optional(_ key: String) throws(SkippedItem) -> String? {
    guard let value = object[key], !(value is NSNull) else { return nil }
    guard let string = value as? String else {
      throw SkippedItem(index: index, field: prefix + key, reason: .wrongType(expected: "a string"))
    }
    return string
  }

  /// An absolute URL that must be present.
  func requiredURL(_ key: String) throws(SkippedItem) -> URL {
    let text = try required(key)
    guard let url = URL(string: text), url.scheme != nil else {
      throw SkippedItem(index: index, field: prefix + key, reason: .invalid("not a URL"))
    }
    return url
  }

  /// An absolute `http`/`https` URL with a host that must be present: what a network feed may
  /// point to. `file:`, `data:`, `javascript:`, `ftp:`… are refused with the reason.
  func requiredWebURL(_ key: String) throws(SkippedItem) -> URL {
    try WebURL.check(try requiredURL(key), index: index, field: prefix + key)
  }

  /// A nested object that must be present.
  func nested(_ key: String) throws(SkippedItem) -> FeedFields {
    guard let value = object[key], !(value is NSNull) else {
      throw SkippedItem(index: index, field: prefix + key, reason: .missing)
    }
    guard let inner = value as? [String: Any] else {
      throw SkippedItem(
        index: index, field: prefix + key, reason: .wrongType(expected: "an object"))
    }
    return FeedFields(object: inner, index: index, prefix: prefix + key + ".")
  }
}

/// The rule for addresses a network feed hands out: http(s) with a host, nothing else.
enum WebURL {
  /// `url` when its scheme is in `FeedLimits.networkSchemes` and it names a host; otherwise
  /// the entry is skipped with a reason a person understands.
  static func check(_ url: URL, index: Int, field: String) throws(SkippedItem) -> URL {
    let scheme = url.scheme?.lowercased() ?? ""
    guard FeedLimits.networkSchemes.contains(scheme) else {
      throw SkippedItem(
        index: index, field: field,
        reason: .invalid("only http and https addresses are allowed, not “\(scheme):”"))
    }
    guard let host = url.host, !host.isEmpty else {
      throw SkippedItem(index: index, field: field, reason: .invalid("the address has no host"))
    }
    return url
  }
}

/// Dates as Flickr writes them: ISO 8601 with a `Z` or a `±hh:mm` offset.
enum FeedDate {
  static func parse(_ text: String?) -> Date? {
    guard let text, !text.isEmpty else { return nil }
    return try? Date(text, strategy: .iso8601)
  }
}
