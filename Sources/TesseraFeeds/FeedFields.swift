import Foundation

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

/// Dates as Flickr writes them: ISO 8601 with a `Z` or a `±hh:mm` offset.
enum FeedDate {
  static func parse(_ text: String?) -> Date? {
    guard let text, !text.isEmpty else { return nil }
    return try? Date(text, strategy: .iso8601)
  }
}
