import TesseraUtilities

/// Why a whole feed could not be shown. Each case says what a person needs to understand the
/// failure; `message(retrieving:)` turns it into the sentence the app displays.
public enum FeedError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The feed's address is not a URL this layer can fetch.
  case invalidURL(String)
  /// The transport failed before an answer arrived (refused, reset, DNS, …).
  case network(String)
  /// The server did not answer within the request's timeout, or the whole download took
  /// longer than its deadline.
  case timedOut
  /// The body grew past `limit` bytes; reading stopped there.
  case tooLarge(limit: Int)
  /// The fetch was cancelled (a refresh superseded it, or its task was cancelled).
  case cancelled
  /// The server answered with a status other than 200.
  case badStatus(Int)
  /// The body is not JSON at all (an HTML error page, a truncated body, …).
  case notJSON(preview: String)
  /// The body is JSON but not of the expected shape. `item` is the index of the offending
  /// entry, or nil when the document itself is wrong (e.g. no `items` array).
  case wrongShape(field: String, item: Int?, expected: String)
  /// The feed parsed, and holds nothing to show.
  case emptyFeed
  /// A local folder could not be listed.
  case unreadableFolder(path: String, reason: String)

  public var description: String {
    switch self {
    case .invalidURL(let text): "“\(text)” is not a valid address"
    case .network(let reason): "the network failed (\(reason))"
    case .timedOut: "the server did not answer in time"
    case .tooLarge(let limit): "the feed is larger than \(ByteCount.text(limit))"
    case .cancelled: "the request was cancelled"
    case .badStatus(let status): "the server answered \(status)"
    case .notJSON(let preview):
      preview.isEmpty ? "the answer is empty" : "the answer is not JSON (it starts “\(preview)”)"
    case .wrongShape(let field, let item?, let expected):
      "item \(item) has no usable “\(field)” (expected \(expected))"
    case .wrongShape(let field, nil, let expected):
      field.isEmpty
        ? "the answer is not \(expected)"
        : "the answer has no usable “\(field)” (expected \(expected))"
    case .emptyFeed: "the feed is empty"
    case .unreadableFolder(let path, let reason): "can't read the folder \(path): \(reason)"
    }
  }

  /// The sentence shown to a person, e.g. "Can't retrieve photos: the server answered 500".
  public func message(retrieving noun: String) -> String {
    "Can't retrieve \(noun): \(description)"
  }
}

/// An entry of a feed that was left out, and why. A bad entry never fails the whole feed.
public struct SkippedItem: Error, Equatable, Sendable, CustomStringConvertible {
  /// Why the entry could not become an item.
  public enum Reason: Equatable, Sendable {
    case missing
    case wrongType(expected: String)
    case invalid(String)
  }

  /// Position of the entry in the document's array.
  public let index: Int
  /// The field at fault, dotted for nested ones ("media.m"); empty when the entry itself is.
  public let field: String
  public let reason: Reason

  public init(index: Int, field: String, reason: Reason) {
    self.index = index
    self.field = field
    self.reason = reason
  }

  public var description: String {
    let subject = field.isEmpty ? "item \(index)" : "item \(index) field “\(field)”"
    switch reason {
    case .missing: return "\(subject) is missing"
    case .wrongType(let expected): return "\(subject) is not \(expected)"
    case .invalid(let why): return "\(subject) is invalid: \(why)"
    }
  }

  /// What this entry's problem means when every entry had one and the feed is unusable.
  var asFeedError: FeedError {
    switch reason {
    case .missing: .wrongShape(field: field, item: index, expected: "a value")
    case .wrongType(let expected): .wrongShape(field: field, item: index, expected: expected)
    case .invalid(let why): .wrongShape(field: field, item: index, expected: why)
    }
  }
}
