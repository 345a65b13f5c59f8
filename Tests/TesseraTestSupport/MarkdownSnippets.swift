import Foundation

/// Reads the Swift snippets of documentation pages, so DocumentationTests can check that each
/// one is also compiled code (and the pages cannot go stale).
public enum MarkdownSnippets {
  /// The bodies of the ```swift blocks of a Markdown text. O(length).
  public static func swiftBlocks(in markdown: String) -> [String] {
    var blocks: [String] = []
    var current: [Substring]?
    for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      if current == nil, trimmed == "```swift" {
        current = []
      } else if current != nil, trimmed == "```" {
        blocks.append(current?.joined(separator: "\n") ?? "")
        current = nil
      } else {
        current?.append(line)
      }
    }
    return blocks
  }

  /// `text` without any whitespace, to compare code regardless of formatting. O(length).
  public static func squeezed(_ text: String) -> String {
    String(text.unicodeScalars.filter { !CharacterSet.whitespacesAndNewlines.contains($0) })
  }
}
