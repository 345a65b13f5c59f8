import TesseraPhotoLibrary

/// What the person has chosen and done to the photos: marks, whether Enter picks
/// (`--pick`), the paths to print on exit, and the batches `d` moved to the Trash.
struct GalleryChoices {
  /// The marked photos (`m`, `v`, `*`).
  var marks = GalleryMarks()
  /// `--pick`: Enter chooses the selected photo and quits, instead of opening it.
  var picking = false
  /// What to print on standard output once the terminal is restored (`-o`, `--pick`): set on
  /// `q` (or a pick), never on Ctrl-C.
  var exitPaths: [String]?
  /// What each `d` moved, last last: `u` puts the last batch back.
  var trashed: [[TrashedPhoto]] = []
  /// What `u` undoes, last last: a `d` (its batch is `trashed`' last) or a culling key.
  var undoable: [Undoable] = []

  enum Undoable {
    case trash
    case culling(PhotoLibrary.CullingUndo)
  }
}
