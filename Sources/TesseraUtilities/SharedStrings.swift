/// Equal strings as one storage: text that repeats across many values (a camera's model name
/// on every photo it took) is held once however often it was parsed.
///
/// Holds at most `limit` distinct strings; past it a string is returned as given, so hostile
/// input of all-different strings costs no more than it would without sharing.
///
/// - Complexity: `shared(_:)` is O(string length) (one hash), memory O(limit).
public struct SharedStrings: Sendable {
  public let limit: Int
  private var known: Set<String> = []

  public init(limit: Int = 256) {
    self.limit = max(0, limit)
  }

  /// `text`, or an equal string seen before (whose storage it then shares).
  public mutating func shared(_ text: String) -> String {
    if let index = known.firstIndex(of: text) { return known[index] }
    if known.count < limit { known.insert(text) }
    return text
  }

  /// Distinct strings held.
  public var count: Int { known.count }
}
