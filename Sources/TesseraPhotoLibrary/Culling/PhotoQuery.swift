import Foundation
import TesseraPhotoFormats
import TesseraUtilities

/// What `/`, `--filter EXPR` and `tessera find --filter EXPR` select photos by: one grammar.
///
/// An expression is terms separated by spaces; a photo matches when every term holds. A term
/// with `!` before it holds when the term does not.
///
/// | term | holds for a photo |
/// |---|---|
/// | `rating>=3` (also `>`, `<=`, `<`, `=`) | whose rating compares so; unrated is 0, rejected −1 |
/// | `rejected` | rejected (`xmp:Rating` −1) |
/// | `label:red` (`yellow` `green` `blue` `purple`, `none`, `any`) | with that colour label |
/// | `tag:wedding` | with that keyword, or a tag path holding it as a level ("People/Ann"), or that path |
/// | `camera:x100` | whose camera model contains it |
/// | `date:2024`, `date:2024-05`, `date:2024-05-01` (also `>=` `>` `<=` `<`) | taken (else modified) in, after or before that year, month or day |
/// | `name:beach`, or a word without `:` | whose file name contains it |
///
/// Every comparison of text ignores case. A term Tessera cannot read is an error that names it
/// (``ParseError``), never a filter that silently matches nothing.
///
/// - Complexity: parsing is O(expression); a match O(terms × the photo's text).
public struct PhotoQuery: Equatable, Sendable {
  /// What a photo is matched on.
  public struct Facts: Sendable {
    public var name: String
    /// −1 rejected, 0…5; nil counts as 0.
    public var rating: Int?
    public var label: PhotoCulling.Label?
    /// Keywords, and tag paths with their levels joined by "/".
    public var tags: [String]
    public var camera: String?
    /// The date taken, else the modification time.
    public var date: WallClockTime

    public init(
      name: String, rating: Int? = nil, label: PhotoCulling.Label? = nil, tags: [String] = [],
      camera: String? = nil, date: WallClockTime
    ) {
      self.name = name
      self.rating = rating
      self.label = label
      self.tags = tags
      self.camera = camera
      self.date = date
    }
  }

  /// An expression that is not one, with the term and why.
  public struct ParseError: Error, Equatable, CustomStringConvertible {
    public let description: String
  }

  enum Comparison: String, Equatable, Sendable, CaseIterable {
    // Two-character operators first: ">=" must not read as ">".
    case atLeast = ">=", atMost = "<=", more = ">", less = "<", equal = "="

    func holds<T: Comparable>(_ value: T, _ bound: T) -> Bool {
      switch self {
      case .atLeast: value >= bound
      case .atMost: value <= bound
      case .more: value > bound
      case .less: value < bound
      case .equal: value == bound
      }
    }
  }

  enum LabelTerm: Equatable, Sendable {
    case is_(PhotoCulling.Label)
    case none
    case any
  }

  enum Condition: Equatable, Sendable {
    case rating(Comparison, Int)
    case label(LabelTerm)
    case tag(String)
    case camera(String)
    /// Seconds on the wall clock: the period's first, and the first after it.
    case date(Comparison, start: Int64, end: Int64)
    case name(String)
  }

  struct Term: Equatable, Sendable {
    var condition: Condition
    var negated: Bool
  }

  let terms: [Term]

  /// The expression as written.
  public let text: String

  /// Longest expression read: a person's, or a script's.
  static let maxLength = 4_096

  public init(_ text: String) throws(ParseError) {
    guard text.utf8.count <= Self.maxLength else {
      throw ParseError(description: "the filter is longer than \(Self.maxLength) bytes")
    }
    self.text = text
    var terms: [Term] = []
    for word in text.split(whereSeparator: \.isWhitespace) {
      // By scalars: "!" and a combining mark after it are one Character, and still a "!".
      var scalars = Substring(word).unicodeScalars
      let negated = scalars.first == "!"
      if negated { scalars = scalars.dropFirst() }
      guard !scalars.isEmpty else { throw ParseError(description: "“!” needs a term after it") }
      terms.append(Term(condition: try Self.condition(String(scalars)), negated: negated))
    }
    self.terms = terms
  }

  public var isEmpty: Bool { terms.isEmpty }

  public func matches(_ facts: Facts) -> Bool {
    terms.allSatisfy { term in Self.holds(term.condition, facts) != term.negated }
  }

  private static func holds(_ condition: Condition, _ facts: Facts) -> Bool {
    switch condition {
    case .rating(let comparison, let bound): return comparison.holds(facts.rating ?? 0, bound)
    case .label(.is_(let label)): return facts.label == label
    case .label(.none): return facts.label == nil
    case .label(.any): return facts.label != nil
    case .tag(let tag):
      return facts.tags.contains { path in
        path.caseInsensitiveCompare(tag) == .orderedSame
          || path.split(separator: "/").contains { $0.caseInsensitiveCompare(tag) == .orderedSame }
      }
    case .camera(let text): return facts.camera?.range(of: text, options: .caseInsensitive) != nil
    case .name(let text): return facts.name.range(of: text, options: .caseInsensitive) != nil
    case .date(let comparison, let start, let end):
      let seconds = facts.date.seconds
      switch comparison {
      case .equal: return seconds >= start && seconds < end
      case .atLeast: return seconds >= start
      case .more: return seconds >= end
      case .atMost: return seconds < end
      case .less: return seconds < start
      }
    }
  }

  private static func condition(_ word: String) throws(ParseError) -> Condition {
    if word.lowercased() == "rejected" { return .rating(.equal, PhotoCulling.rejected) }
    for key in ["rating", "date"] where word.lowercased().hasPrefix(key) {
      let rest = word.dropFirst(key.count)
      if key == "date", rest.hasPrefix(":") {
        return try date(.equal, String(rest.dropFirst()), word)
      }
      guard let comparison = Comparison.allCases.first(where: { rest.hasPrefix($0.rawValue) })
      else { break }
      let value = String(rest.dropFirst(comparison.rawValue.count))
      if key == "date" { return try date(comparison, value, word) }
      guard let rating = Int(value), (-1...5).contains(rating) else {
        throw ParseError(description: "“\(word)”: a rating is −1 (rejected) to 5")
      }
      return .rating(comparison, rating)
    }
    let known = "filters are rating, rejected, label:, tag:, camera:, date:, name:"
    guard let colon = word.firstIndex(of: ":") else {
      // "stars>3" is a mistyped filter, not a name to look for.
      guard !word.contains(where: { "<>=".contains($0) }) else {
        throw ParseError(description: "“\(word)”: \(known)")
      }
      return .name(word)
    }
    let key = word[..<colon].lowercased()
    let value = String(word[word.index(after: colon)...])
    guard !value.isEmpty else { throw ParseError(description: "“\(word)” needs a value after “:”") }
    switch key {
    case "label":
      switch value.lowercased() {
      case "none": return .label(.none)
      case "any": return .label(.any)
      default:
        guard
          let label = PhotoCulling.Label.allCases.first(where: {
            $0 != .other && $0.name.lowercased() == value.lowercased()
          })
        else {
          throw ParseError(
            description: "“\(word)”: a label is red, yellow, green, blue, purple, none or any")
        }
        return .label(.is_(label))
      }
    case "tag": return .tag(value)
    case "camera": return .camera(value)
    case "name": return .name(value)
    default:
      throw ParseError(description: "“\(word)”: \(known)")
    }
  }

  /// A year, month or day ("2024", "2024-05", "2024-05-01") as its first second and the
  /// first second after it.
  private static func date(
    _ comparison: Comparison, _ text: String, _ word: String
  ) throws(ParseError)
    -> Condition
  {
    let parts = text.split(separator: "-", omittingEmptySubsequences: false)
    let numbers = parts.map { part in
      part.utf8.allSatisfy { (0x30...0x39).contains($0) } && !part.isEmpty && part.count <= 4
        ? Int(part) : nil
    }
    guard (1...3).contains(parts.count), numbers.allSatisfy({ $0 != nil }),
      let year = numbers[0], (1800...9999).contains(year)
    else {
      throw ParseError(description: "“\(word)”: a date is YYYY, YYYY-MM or YYYY-MM-DD")
    }
    let month = parts.count > 1 ? numbers[1]! : 1
    guard (1...12).contains(month) else {
      throw ParseError(description: "“\(word)”: a month is 1 to 12")
    }
    let day = parts.count > 2 ? numbers[2]! : 1
    guard (1...CivilCalendar.daysIn(month: month, year: year)).contains(day) else {
      throw ParseError(description: "“\(word)”: that month has no day \(day)")
    }
    let first = CivilCalendar.days(year: year, month: month, day: day)
    let next: Int
    switch parts.count {
    case 1: next = CivilCalendar.days(year: year + 1, month: 1, day: 1)
    case 2:
      next =
        month == 12
        ? CivilCalendar.days(year: year + 1, month: 1, day: 1)
        : CivilCalendar.days(year: year, month: month + 1, day: 1)
    default: next = first + 1
    }
    return .date(comparison, start: Int64(first) * 86_400, end: Int64(next) * 86_400)
  }
}
