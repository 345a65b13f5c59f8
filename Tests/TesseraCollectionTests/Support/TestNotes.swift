import TesseraCollection

/// An item of the snapshot tests: its identity is `id`, its content `text`.
struct Note: Identifiable, Equatable, Sendable, CustomStringConvertible {
  var id: Int
  var text: String

  init(id: Int, text: String? = nil) {
    self.id = id
    self.text = text ?? "note \(id)"
  }

  var description: String { "\(id):\(text)" }
}

/// Notes with the default text for `ids`.
func notes<IDs: Sequence<Int>>(_ ids: IDs) -> [Note] { ids.map { Note(id: $0) } }

/// A cell that shows a note: `note` is what a renderer would draw.
@MainActor
final class NoteCell: ReusableView {
  var note: Note?
  required init() {}
  func prepareForReuse() { note = nil }
}

/// A header or footer that shows its section's identifier.
@MainActor
final class NoteHeader: ReusableView {
  var title: String?
  required init() {}
  func prepareForReuse() { title = nil }
}
