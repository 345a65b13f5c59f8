import Foundation
import TesseraTerminal
import Testing

@testable import TesseraGallery
@testable import tessera

/// Every key the gallery binds is in the help card (`?`), in `--help` (which the man page is
/// made from) and in the README's table: a key added without its documentation fails here.
struct KeysDocumentedTests {
  /// Second spellings of documented keys, left out of the documentation on purpose.
  static let aliases: Set<Key> = [.character("="), .character("_"), .control("f"), .control("b")]

  /// How the documentation may spell `key`.
  static func spellings(of key: Key) -> [String] {
    switch key {
    case .character(" "): ["Space"]
    case .character(let character): [String(character)]
    case .control(let letter): ["Ctrl-\(letter)", "Ctrl-\(letter.uppercased())"]
    case .escape: ["Esc"]
    case .enter: ["Enter"]
    case .backspace: ["Backspace", "⌫"]
    case .pageDown: ["PgDn"]
    case .pageUp: ["PgUp"]
    case .tab: ["Tab"]
    case .backTab: ["Shift-Tab"]
    case .home: ["Home"]
    case .end: ["End"]
    case .up: ["↑", "arrows"]
    case .down: ["↓", "arrows"]
    case .left: ["←", "arrows"]
    case .right: ["→", "arrows"]
    default: [key.description]
    }
  }

  /// The words of `text`, with the punctuation of prose and Markdown taken off their ends
  /// (not the characters that are keys: `/`, `+`, `-`, `*`, `?`).
  static func tokens(_ text: String) -> Set<String> {
    let trim = CharacterSet(charactersIn: ",;:.()`|\"")
    return Set(
      text.split(whereSeparator: \.isWhitespace).map {
        String($0).trimmingCharacters(in: trim)
      })
  }

  static let boundKeys: Set<Key> = Set(GalleryKeymap.all.flatMap(\.bindings.keys))
    .subtracting(aliases)

  static func undocumented(in text: String) -> [Key] {
    let words = tokens(text)
    return boundKeys.filter { key in !spellings(of: key).contains { words.contains($0) } }
      .sorted { $0.description < $1.description }
  }

  @Test func everyKeyIsOnTheHelpCard() {
    #expect(Self.undocumented(in: HelpOverlay.lines.joined(separator: "\n")) == [])
  }

  @Test func everyKeyIsInHelpAndSoInTheManPage() {
    #expect(Self.undocumented(in: Gallery.helpMessage(columns: 200)) == [])
  }

  @Test func everyKeyIsInTheReadme() throws {
    let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("../../../README.md").standardizedFileURL
    #expect(Self.undocumented(in: try String(contentsOf: readme, encoding: .utf8)) == [])
  }

  @Test func aKeyMissingFromATextIsFound() {
    // The check itself can fail: a text without the line of `t` and `S` names both.
    let missing = Self.undocumented(in: HelpOverlay.lines.joined(separator: "\n") + " ")
      .isEmpty
    #expect(missing)
    let without = HelpOverlay.lines.filter { !$0.hasPrefix("t ") }.joined(separator: "\n")
    #expect(Self.undocumented(in: without) == [.character("S"), .character("t")])
  }
}
