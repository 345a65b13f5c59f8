import TesseraPhotoFormats

/// `i`: the info panel over the grid or the detail view, for the photo shown (or selected):
/// which photo, and how it was taken as its file says, read off the main actor. It follows
/// the selection; `i` or Esc closes it.
struct InfoPanelMode {
  enum Reading: Equatable {
    case reading
    /// Nil when the file records none of it (or could not be read).
    case read(ShootingFacts?)
  }

  /// The item the panel describes, and what was read of it.
  var itemID: String
  var facts: Reading = .reading
  /// Reading `itemID`'s file.
  var load: Task<Void, Never>?
}
