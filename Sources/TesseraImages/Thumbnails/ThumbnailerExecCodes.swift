/// The codes of a thumbnailer entry's `Exec` (`%i` the file's path, `%u` its `file:` URI, `%o`
/// the output, `%s` the size, `%%` a percent sign), filled into one word as GLib's thumbnail
/// factory fills them: in one pass from the left, over Unicode scalars (a code followed by a
/// combining mark is still the code). What a code put in is never read again, so a file named
/// `clip%s.mp4` or `x%u.mp4` stays that file: replacing code by code had made `%s` inside the
/// path the size, and sent the thumbnailer to another file. An unknown code, and a `%` that
/// ends the word, are left as they are.
enum ThumbnailerExecCodes {
  /// `word` with each code that `values` names (by the scalar after `%`) replaced by its value,
  /// and `%%` by `%`.
  /// - Complexity: O(word + values put in).
  static func fill(_ word: String, with values: [Unicode.Scalar: String]) -> String {
    var filled = String.UnicodeScalarView()
    var rest = word.unicodeScalars[...]
    while let percent = rest.firstIndex(of: "%") {
      filled.append(contentsOf: rest[..<percent])
      let code = rest.index(after: percent)
      guard code < rest.endIndex else {
        rest = rest[percent...]
        break
      }
      if rest[code] == "%" {
        filled.append("%")
      } else if let value = values[rest[code]] {
        filled.append(contentsOf: value.unicodeScalars)
      } else {
        filled.append("%")
        rest = rest[code...]
        continue
      }
      rest = rest[rest.index(after: code)...]
    }
    filled.append(contentsOf: rest)
    return String(filled)
  }
}
