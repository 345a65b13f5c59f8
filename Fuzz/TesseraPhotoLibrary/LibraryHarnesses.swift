import Foundation

extension FuzzHarnesses {
  static let moduleHarnesses: [String: @Sendable (UnsafeRawBufferPointer) -> Void] = [
    // Any text as a filter (`--filter`, `/`, `tessera find`): it parses or is refused with a
    // sentence naming why; parsing is deterministic; a parsed filter matches any photo's facts
    // without trapping, and a term and its negation never both hold.
    "photo-query": { bytes in
      let text = String(decoding: bytes, as: UTF8.self)
      let facts = [
        PhotoQuery.Facts(name: text, date: WallClockTime(seconds: 0)),
        PhotoQuery.Facts(
          name: "IMG_0001.CR2", rating: -1, label: .red, tags: [text, "a/b"], camera: text,
          date: WallClockTime(seconds: Int64(WallClockTime.secondsLimit))),
        PhotoQuery.Facts(
          name: "", rating: 5, label: .other,
          date: WallClockTime(seconds: -Int64(WallClockTime.secondsLimit))),
      ]
      do throws(PhotoQuery.ParseError) {
        let query = try PhotoQuery(text)
        precondition((try? PhotoQuery(text)) == query, "parsing is not deterministic")
        for fact in facts { _ = query.matches(fact) }
        // One term and its negation: exactly one of them holds.
        let words = text.split(whereSeparator: \.isWhitespace)
        if words.count == 1, words[0].unicodeScalars.first != "!",
          let negated = try? PhotoQuery("!" + words[0])
        {
          for fact in facts { precondition(query.matches(fact) != negated.matches(fact)) }
        }
      } catch {
        precondition(!error.description.isEmpty, "a refusal without a reason")
      }
    }
  ]
}
