/// Word wrapping for cells and the detail view. O(characters).
enum TextWrap {
  /// `text` broken into lines of at most `width` characters, at spaces where possible;
  /// newlines in `text` start new lines.
  static func lines(_ text: String, width: Int) -> [String] {
    guard width > 0 else { return [] }
    var result: [String] = []
    for paragraph in text.split(separator: "\n", omittingEmptySubsequences: true) {
      var line = ""
      for word in paragraph.split(separator: " ", omittingEmptySubsequences: true) {
        var word = Substring(word)
        while word.count > width {
          if !line.isEmpty {
            result.append(line)
            line = ""
          }
          result.append(String(word.prefix(width)))
          word = word.dropFirst(width)
        }
        if line.isEmpty {
          line = String(word)
        } else if line.count + 1 + word.count <= width {
          line += " " + word
        } else {
          result.append(line)
          line = String(word)
        }
      }
      if !line.isEmpty { result.append(line) }
    }
    return result
  }

  /// `text` cut to `width` characters, with an ellipsis when cut.
  static func truncate(_ text: String, width: Int) -> String {
    guard width > 0 else { return "" }
    guard text.count > width else { return text }
    return String(text.prefix(max(0, width - 1))) + "…"
  }
}
