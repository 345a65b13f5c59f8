import Foundation

/// The tag prompt (`#`): what is typed, read as tags separated by commas — `wedding` adds a
/// keyword, `People/Ann` a path, `-Ann` removes one — and completed with Tab from the tags
/// the library's photos already have, as Lightroom's and digiKam's keyword fields do.
///
/// - Complexity: parsing O(typed); a completion O(vocabulary) comparisons.
struct TagInput: Equatable {
  var typed = ""
  /// The library's tags when the prompt opened (`PhotoCatalog.tagVocabulary()`).
  let vocabulary: [String]

  /// The tags to add and to remove, as typed: each once, in order.
  var change: (add: [String], remove: [String]) {
    var add: [String] = []
    var remove: [String] = []
    for term in typed.split(separator: ",") {
      let trimmed = term.trimmingCharacters(in: .whitespaces)
      if trimmed.hasPrefix("-") || trimmed.hasPrefix("−") {
        let tag = String(trimmed.dropFirst()).trimmingCharacters(in: .whitespaces)
        if !tag.isEmpty, !remove.contains(tag) { remove.append(tag) }
      } else {
        let tag = trimmed.hasPrefix("+") ? String(trimmed.dropFirst()) : trimmed
        let cleaned = tag.trimmingCharacters(in: .whitespaces)
        if !cleaned.isEmpty, !add.contains(cleaned) { add.append(cleaned) }
      }
    }
    return (add, remove)
  }

  /// The term being typed (after the last comma), without its sign and leading spaces.
  private var current: (prefix: Substring, sign: String, word: String) {
    let start = typed.lastIndex(of: ",").map { typed.index(after: $0) } ?? typed.startIndex
    var word = typed[start...].drop { $0 == " " }
    var sign = ""
    if let first = word.first, "-−+".contains(first) {
      sign = String(first)
      word = word.dropFirst().drop { $0 == " " }
    }
    return (typed[..<start], sign, String(word))
  }

  /// The library's first tag (in the vocabulary's order) that starts with the word being
  /// typed, ignoring case, and is not that word already; nil for no word or no such tag.
  var completion: String? {
    let word = current.word.lowercased()
    guard !word.isEmpty else { return nil }
    return vocabulary.first { $0.lowercased().hasPrefix(word) && $0.lowercased() != word }
  }

  /// Tab: the word being typed replaced by ``completion``.
  mutating func complete() {
    guard let completion else { return }
    let (prefix, sign, _) = current
    let space = prefix.isEmpty || prefix.hasSuffix(" ") ? "" : " "
    typed = String(prefix) + space + sign + completion
  }

  /// "+wedding −Ann": a change of tags as the prompt and the status bar after it say it.
  static func summary(add: [String], remove: [String]) -> String {
    (add.map { "+" + $0 } + remove.map { "−" + $0 }).joined(separator: " ")
  }

  /// The status bar while typing: what is typed, the completion Tab would take, and what
  /// Enter does to how many photos.
  func prompt(photos: Int) -> String {
    let (add, remove) = change
    let hint = completion.map { " · Tab: \($0)" } ?? ""
    let what = Self.summary(add: add, remove: remove)
    let count = photos == 1 ? "1 photo" : "\(photos) photos"
    let enter = what.isEmpty ? "tags, -tag removes" : "Enter: \(what) on \(count)"
    return "#\(typed)▏\(hint) · \(enter) · Esc cancels"
  }
}
